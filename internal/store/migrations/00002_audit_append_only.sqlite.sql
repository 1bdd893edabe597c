-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit history is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit history is append-only'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER audit_events_no_update;
DROP TRIGGER audit_events_no_delete;
