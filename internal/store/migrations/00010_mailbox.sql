-- +goose Up
-- Email in: the inbound queue (SMTP spool), threads, messages, attachments,
-- labels, sender rules, known correspondents and mailbox usage. Raw messages
-- live as blob files in the data dir; rows point at them.

-- One row per message accepted over SMTP (250 sent), written before the
-- reply; the pipeline deletes it in the transaction that stores the
-- message(s). claimed_until is a lease so a crashed worker's row is retried.
CREATE TABLE inbound_queue (
    id            TEXT PRIMARY KEY,
    blob_path     TEXT NOT NULL,
    size          BIGINT NOT NULL,
    sha256        TEXT NOT NULL,
    remote_ip     TEXT NOT NULL,
    helo          TEXT NOT NULL,
    mail_from     TEXT NOT NULL,
    recipients    TEXT NOT NULL,
    tls           BOOLEAN NOT NULL,
    received_at   BIGINT NOT NULL,
    attempts      INTEGER NOT NULL,
    claimed_until BIGINT NOT NULL,
    last_error    TEXT NOT NULL
);
CREATE INDEX inbound_queue_claim ON inbound_queue(claimed_until);

CREATE TABLE threads (
    id                 TEXT PRIMARY KEY,
    org_id             TEXT NOT NULL,
    inbox_id           TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    folder             TEXT NOT NULL,
    subject            TEXT NOT NULL,
    normalized_subject TEXT NOT NULL,
    correspondents     TEXT NOT NULL,
    snippet            TEXT NOT NULL,
    last_from_name     TEXT NOT NULL,
    last_from_address  TEXT NOT NULL,
    message_count      INTEGER NOT NULL,
    agent_read         BOOLEAN NOT NULL,
    team_read          BOOLEAN NOT NULL,
    last_message_at    BIGINT NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE INDEX threads_folder ON threads(inbox_id, folder, last_message_at, id);
CREATE INDEX threads_subject ON threads(inbox_id, normalized_subject, last_message_at);

CREATE TABLE thread_labels (
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    label     TEXT NOT NULL,
    PRIMARY KEY (thread_id, label)
);
CREATE INDEX thread_labels_label ON thread_labels(label, thread_id);

CREATE TABLE messages (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL,
    inbox_id      TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    thread_id     TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    direction     TEXT NOT NULL,
    header_message_id TEXT NOT NULL,
    in_reply_to   TEXT NOT NULL,
    refs          TEXT NOT NULL,
    from_name     TEXT NOT NULL,
    from_address  TEXT NOT NULL,
    to_json       TEXT NOT NULL,
    cc_json       TEXT NOT NULL,
    reply_to_json TEXT NOT NULL,
    subject       TEXT NOT NULL,
    snippet       TEXT NOT NULL,
    text_body     TEXT NOT NULL,
    html_body     TEXT NOT NULL,
    verdict       TEXT NOT NULL,
    reasons       TEXT NOT NULL,
    findings      TEXT NOT NULL,
    auth_json     TEXT NOT NULL,
    warnings      TEXT NOT NULL,
    -- One-time code and confirmation link; NULL until first looked for
    -- (extraction is slow on long mail, so it runs on demand, not on ingest).
    code          TEXT,
    link          TEXT,
    quarantined   BOOLEAN NOT NULL,
    size          BIGINT NOT NULL,
    sha256        TEXT NOT NULL,
    blob_path     TEXT NOT NULL,
    sent_at       BIGINT NOT NULL,
    received_at   BIGINT NOT NULL
);
CREATE INDEX messages_inbox ON messages(inbox_id, id);
CREATE INDEX messages_thread ON messages(thread_id, id);
CREATE INDEX messages_header_id ON messages(inbox_id, header_message_id);
CREATE INDEX messages_received ON messages(inbox_id, received_at);

CREATE TABLE attachments (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL,
    inbox_id     TEXT NOT NULL,
    message_id   TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    part_id      TEXT NOT NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         BIGINT NOT NULL,
    inline       BOOLEAN NOT NULL,
    content_id   TEXT NOT NULL
);
CREATE INDEX attachments_message ON attachments(message_id, id);

CREATE TABLE sender_rules (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL,
    inbox_id   TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (inbox_id, pattern)
);

-- Domains an inbox has exchanged mail with: screening's known correspondents.
CREATE TABLE correspondents (
    inbox_id TEXT NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
    domain   TEXT NOT NULL,
    last_at  BIGINT NOT NULL,
    PRIMARY KEY (inbox_id, domain)
);

-- Quota counters, kept in the same transaction as the messages they count.
CREATE TABLE mail_usage (
    org_id        TEXT PRIMARY KEY,
    stored_bytes  BIGINT NOT NULL,
    month         TEXT NOT NULL,
    month_inbound BIGINT NOT NULL
);

-- +goose Down
DROP TABLE mail_usage;
DROP TABLE correspondents;
DROP TABLE sender_rules;
DROP TABLE attachments;
DROP TABLE messages;
DROP TABLE thread_labels;
DROP TABLE threads;
DROP TABLE inbound_queue;
