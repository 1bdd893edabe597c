-- The audit history is written on every vault read, so on SQLite each row
-- should touch as few b-trees as possible: clustered on (org_id, id)
-- WITHOUT ROWID it is one tree where a rowid table had three (the table,
-- its id key and the (org_id, id) index), plus the two filter indexes.
-- Every query names the organization, and ids are unique on their own.
-- PostgreSQL keeps its heap and indexes (no such file for it).

-- +goose Up
CREATE TABLE audit_events_clustered (
    id            TEXT NOT NULL,
    org_id        TEXT NOT NULL,
    at            BIGINT NOT NULL,
    actor_type    TEXT NOT NULL,
    actor_id      TEXT NOT NULL,
    credential_id TEXT NOT NULL,
    action        TEXT NOT NULL,
    target_type   TEXT NOT NULL,
    target_id     TEXT NOT NULL,
    details       TEXT NOT NULL,
    PRIMARY KEY (org_id, id)
) WITHOUT ROWID;
INSERT INTO audit_events_clustered (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details)
    SELECT id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details FROM audit_events;
DROP TRIGGER audit_events_no_update;
DROP TRIGGER audit_events_no_delete;
DROP TABLE audit_events;
ALTER TABLE audit_events_clustered RENAME TO audit_events;
CREATE INDEX audit_events_target ON audit_events(org_id, target_id, id);
CREATE INDEX audit_events_actor ON audit_events(org_id, actor_id, id);
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit history is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit history is append-only'); END;
-- +goose StatementEnd

-- +goose Down
CREATE TABLE audit_events_rowid (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL,
    at            BIGINT NOT NULL,
    actor_type    TEXT NOT NULL,
    actor_id      TEXT NOT NULL,
    credential_id TEXT NOT NULL,
    action        TEXT NOT NULL,
    target_type   TEXT NOT NULL,
    target_id     TEXT NOT NULL,
    details       TEXT NOT NULL
);
INSERT INTO audit_events_rowid (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details)
    SELECT id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details FROM audit_events;
DROP TRIGGER audit_events_no_update;
DROP TRIGGER audit_events_no_delete;
DROP TABLE audit_events;
ALTER TABLE audit_events_rowid RENAME TO audit_events;
CREATE INDEX audit_events_org ON audit_events(org_id, id);
CREATE INDEX audit_events_target ON audit_events(org_id, target_id, id);
CREATE INDEX audit_events_actor ON audit_events(org_id, actor_id, id);
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit history is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit history is append-only'); END;
-- +goose StatementEnd
