-- +goose Up
-- Email out: uploads, drafts, sent-message bookkeeping (idempotency keys),
-- the durable outbound queue (one row per recipient), the dev capture,
-- sending domains with their sealed DKIM keys, and verified recipients.

-- Files an agent uploaded to attach later. Bytes live as blob files;
-- draft_id is set while a draft holds the upload (then it never expires).
CREATE TABLE uploads (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL,
    inbox_id     TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         BIGINT NOT NULL,
    blob_path    TEXT NOT NULL,
    draft_id     TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX uploads_inbox ON uploads(inbox_id, id);
CREATE INDEX uploads_expiry ON uploads(expires_at);

CREATE TABLE drafts (
    id                  TEXT PRIMARY KEY,
    org_id              TEXT NOT NULL,
    inbox_id            TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    to_json             TEXT NOT NULL,
    subject             TEXT NOT NULL,
    text_body           TEXT NOT NULL,
    html_body           TEXT NOT NULL,
    attachment_ids      TEXT NOT NULL,
    reply_to_message_id TEXT NOT NULL,
    thread_id           TEXT NOT NULL,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);
CREATE INDEX drafts_inbox ON drafts(inbox_id, id);

-- One row per message sent through the API: the idempotency key (unique per
-- inbox, NULL when none) and the response a retry gets back.
CREATE TABLE outbound_messages (
    message_id      TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL,
    inbox_id        TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    idempotency_key TEXT,
    request_hash    TEXT NOT NULL,
    response_json   TEXT NOT NULL,
    recipients      INTEGER NOT NULL,
    created_at      BIGINT NOT NULL,
    UNIQUE (inbox_id, idempotency_key)
);
CREATE INDEX outbound_messages_org ON outbound_messages(org_id, created_at);

-- The outbound queue: one row per recipient. state is queued until a final
-- answer (delivered, bounced, failed); next_attempt_at is both the retry
-- time and the lease of a worker holding the row. Rows stay after delivery
-- as the per-recipient status and so that a later bounce (DSN) or complaint
-- (ARF) addressed to bounces+<id>@domain finds its message.
CREATE TABLE outbound_queue (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL,
    inbox_id        TEXT NOT NULL,
    message_id      TEXT NOT NULL,
    thread_id       TEXT NOT NULL,
    mail_from       TEXT NOT NULL,
    rcpt            TEXT NOT NULL,
    blob_path       TEXT NOT NULL,
    state           TEXT NOT NULL,
    leased          BOOLEAN NOT NULL,
    attempts        INTEGER NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    last_code       INTEGER NOT NULL,
    last_error      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX outbound_queue_due ON outbound_queue(state, next_attempt_at);
CREATE INDEX outbound_queue_message ON outbound_queue(message_id);
CREATE INDEX outbound_queue_org ON outbound_queue(org_id, created_at);

-- Dev mode without a relay: mail for outside domains lands here.
CREATE TABLE outbound_captures (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL,
    queue_id   TEXT NOT NULL UNIQUE,
    message_id TEXT NOT NULL,
    mail_from  TEXT NOT NULL,
    rcpt       TEXT NOT NULL,
    subject    TEXT NOT NULL,
    blob_path  TEXT NOT NULL,
    size       BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX outbound_captures_org ON outbound_captures(org_id, id);

-- Sending domains: the organization's mail domain (created on first use)
-- and custom domains. The DKIM private key is sealed (internal/seal).
CREATE TABLE domains (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name          TEXT NOT NULL UNIQUE,
    selector      TEXT NOT NULL,
    dkim_sealed   BYTEA NOT NULL,
    dkim_public   TEXT NOT NULL,
    is_default    BOOLEAN NOT NULL,
    verified      BOOLEAN NOT NULL,
    verified_at   BIGINT NOT NULL,
    checks_json   TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX domains_org ON domains(org_id, id);

-- Addresses a sandbox organization may send to, once confirmed.
CREATE TABLE verified_recipients (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    address     TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    verified_at BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (org_id, address)
);

-- +goose Down
DROP TABLE verified_recipients;
DROP TABLE domains;
DROP TABLE outbound_captures;
DROP TABLE outbound_queue;
DROP TABLE outbound_messages;
DROP TABLE drafts;
DROP TABLE uploads;
