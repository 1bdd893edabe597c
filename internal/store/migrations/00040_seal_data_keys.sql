-- +goose Up
-- Per-organization data keys for internal/seal: 32 random bytes each, stored
-- only wrapped (AES-256-GCM) under a master key that never enters the
-- database. master_key_id says which master key wrapped the row, so a
-- rotation can re-wrap row by row and a node can tell that it must re-read
-- its key file.
CREATE TABLE org_data_keys (
    org_id        TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    master_key_id TEXT NOT NULL,
    wrapped       BYTEA NOT NULL,
    created_at    BIGINT NOT NULL,
    rewrapped_at  BIGINT NOT NULL
);
CREATE INDEX org_data_keys_master ON org_data_keys(master_key_id);

-- +goose Down
DROP TABLE org_data_keys;
