-- +goose Up
-- Quarantined mail is searchable by subject and sender only: an agent
-- reading a held message gets an empty snippet, so a search must not tell
-- it which words that snippet holds. The snippet enters the index when the
-- message is released (quarantined turns FALSE).
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_update;

-- +goose StatementBegin
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (message_id, thread_id, subject, sender, snippet)
    VALUES (new.id, new.thread_id, new.subject, new.from_name || ' ' || new.from_address,
            CASE WHEN new.quarantined THEN '' ELSE new.snippet END);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER messages_fts_update AFTER UPDATE OF snippet, subject, quarantined ON messages BEGIN
    UPDATE messages_fts SET subject = new.subject, snippet = CASE WHEN new.quarantined THEN '' ELSE new.snippet END
    WHERE message_id = new.id;
END;
-- +goose StatementEnd

-- Rebuild the index of the rows stored so far, held ones without snippet.
DELETE FROM messages_fts;
INSERT INTO messages_fts (message_id, thread_id, subject, sender, snippet)
SELECT id, thread_id, subject, from_name || ' ' || from_address, CASE WHEN quarantined THEN '' ELSE snippet END FROM messages;

-- +goose Down
DROP TRIGGER messages_fts_update;
DROP TRIGGER messages_fts_insert;

-- +goose StatementBegin
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (message_id, thread_id, subject, sender, snippet)
    VALUES (new.id, new.thread_id, new.subject, new.from_name || ' ' || new.from_address, new.snippet);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER messages_fts_update AFTER UPDATE OF snippet, subject ON messages BEGIN
    UPDATE messages_fts SET subject = new.subject, snippet = new.snippet WHERE message_id = new.id;
END;
-- +goose StatementEnd

DELETE FROM messages_fts;
INSERT INTO messages_fts (message_id, thread_id, subject, sender, snippet)
SELECT id, thread_id, subject, from_name || ' ' || from_address, snippet FROM messages;
