-- +goose Up
-- Quarantined mail is searchable by subject and sender only: an agent
-- reading a held message gets an empty snippet, so a search must not tell
-- it which words that snippet holds. The generated column follows
-- quarantined, so the snippet enters the index when the message is
-- released. A generated column's expression cannot be changed in place
-- before PostgreSQL 17: the column (and its index) is dropped and added
-- again, which recomputes it for every stored row.
ALTER TABLE messages DROP COLUMN search;
ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', subject || ' ' || from_name || ' ' || translate(from_address, '@.', '  ') || ' ' ||
        CASE WHEN quarantined THEN '' ELSE snippet END)) STORED;
CREATE INDEX messages_search ON messages USING GIN (search);

-- +goose Down
ALTER TABLE messages DROP COLUMN search;
ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', subject || ' ' || from_name || ' ' || translate(from_address, '@.', '  ') || ' ' || snippet)) STORED;
CREATE INDEX messages_search ON messages USING GIN (search);
