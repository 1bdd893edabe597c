-- +goose Up
-- Full-text search over subjects, sender names and snippets (PostgreSQL
-- tsvector with the 'simple' configuration: no stemming, so both engines
-- match whole words the same way).
ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', subject || ' ' || from_name || ' ' || translate(from_address, '@.', '  ') || ' ' || snippet)) STORED;
CREATE INDEX messages_search ON messages USING GIN (search);

-- +goose Down
DROP INDEX messages_search;
ALTER TABLE messages DROP COLUMN search;
