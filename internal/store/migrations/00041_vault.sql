-- +goose Up
-- Vault credentials. Values (passwords, API keys) and TOTP secrets are
-- stored only sealed (internal/seal: AES-256-GCM under the organization's
-- data key, bound to the credential id and field). The TOTP parameters are
-- not secret and stay in the clear.
CREATE TABLE vault_credentials (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    kind            TEXT NOT NULL,
    username        TEXT NOT NULL,
    agent_readable  BOOLEAN NOT NULL,
    allowed_origins TEXT NOT NULL,
    value_sealed    BYTEA,
    totp_sealed     BYTEA,
    totp_algorithm  TEXT NOT NULL,
    totp_digits     INTEGER NOT NULL,
    totp_period     INTEGER NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX vault_credentials_org ON vault_credentials(org_id, id);

-- Which agents a credential is equipped on. An agent sees only these.
CREATE TABLE vault_equipment (
    credential_id TEXT NOT NULL REFERENCES vault_credentials(id) ON DELETE CASCADE,
    agent_id      TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    org_id        TEXT NOT NULL,
    equipped_at   BIGINT NOT NULL,
    PRIMARY KEY (credential_id, agent_id)
);
CREATE INDEX vault_equipment_agent ON vault_equipment(agent_id, credential_id);

-- +goose Down
DROP TABLE vault_equipment;
DROP TABLE vault_credentials;
