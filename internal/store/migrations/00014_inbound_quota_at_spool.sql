-- +goose Up
-- The monthly inbound count is now taken when a message is spooled (in the
-- transaction that makes it durable, before the 250), no longer when it is
-- stored: messages in flight between the two went past the quota check, so
-- a burst at the limit overshot it. Rows spooled by earlier versions were
-- not counted at spool time and keep FALSE, so storing them still counts
-- them once.
ALTER TABLE inbound_queue ADD COLUMN quota_counted BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE inbound_queue DROP COLUMN quota_counted;
