-- +goose Up
-- The storage quota now holds the bytes of spooled messages too: a message
-- is counted when it is spooled (before the 250) and stored only later, so
-- checking stored_bytes alone let a burst at the limit overshoot it by the
-- messages in flight. spooled_bytes is what spooled messages will add once
-- stored; inbound_reservations says, per queue row and organization, how
-- much, so that storing or dropping the row gives exactly that back.
ALTER TABLE mail_usage ADD COLUMN spooled_bytes BIGINT NOT NULL DEFAULT 0;
CREATE TABLE inbound_reservations (
    queue_id TEXT NOT NULL,
    org_id   TEXT NOT NULL,
    bytes    BIGINT NOT NULL,
    PRIMARY KEY (queue_id, org_id)
);

-- +goose Down
DROP TABLE inbound_reservations;
ALTER TABLE mail_usage DROP COLUMN spooled_bytes;
