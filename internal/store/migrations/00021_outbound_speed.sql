-- +goose Up
-- Email out, faster sends.

-- Raw messages kept in the database instead of as files (the sending side's
-- signed messages): written in the send transaction, so they are durable
-- with its commit, with no file creation and no file and directory fsync
-- per message. mailbox.Blobs reads a blob_path starting with "db:" here.
CREATE TABLE blob_data (
    path TEXT PRIMARY KEY,
    data BYTEA NOT NULL
);

-- Sends and recipients per organization and period ('d2026-11-21' for a
-- UTC day, 'm2026-11' for a month), kept in the send transaction so a
-- quota check reads one row instead of counting the period's sends. A
-- period's row is started from outbound_messages the first time it is
-- needed (so sends from before this table count).
CREATE TABLE outbound_usage (
    org_id     TEXT NOT NULL,
    period     TEXT NOT NULL,
    sends      BIGINT NOT NULL,
    recipients BIGINT NOT NULL,
    PRIMARY KEY (org_id, period)
);

-- +goose Down
DROP TABLE outbound_usage;
DROP TABLE blob_data;
