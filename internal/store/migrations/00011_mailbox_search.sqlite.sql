-- +goose Up
-- Full-text search over subjects, sender names and snippets (SQLite FTS5),
-- kept in step with messages by triggers.
CREATE VIRTUAL TABLE messages_fts USING fts5(message_id UNINDEXED, thread_id UNINDEXED, subject, sender, snippet, tokenize = 'unicode61 remove_diacritics 2');

-- +goose StatementBegin
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (message_id, thread_id, subject, sender, snippet)
    VALUES (new.id, new.thread_id, new.subject, new.from_name || ' ' || new.from_address, new.snippet);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE message_id = old.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER messages_fts_update AFTER UPDATE OF snippet, subject ON messages BEGIN
    UPDATE messages_fts SET subject = new.subject, snippet = new.snippet WHERE message_id = new.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER messages_fts_update;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_insert;
DROP TABLE messages_fts;
