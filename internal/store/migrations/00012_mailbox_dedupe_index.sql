-- +goose Up
-- The duplicate check on ingest looks up (inbox, Message-ID, sha256). With
-- only (inbox_id, header_message_id) indexed, every earlier message with the
-- same Message-ID had its row read to compare sha256 — and sha256 sits after
-- the bodies, in SQLite's overflow pages — so many copies of one Message-ID
-- (a bulk sender reusing it, or someone doing so on purpose) made each insert
-- slower than the last. Covering the hash makes the check one index probe.
CREATE INDEX messages_header_sha ON messages(inbox_id, header_message_id, sha256);
DROP INDEX messages_header_id;

-- +goose Down
CREATE INDEX messages_header_id ON messages(inbox_id, header_message_id);
DROP INDEX messages_header_sha;
