-- +goose Up
-- Webhooks: endpoints, deliveries, the dispatcher's cursor per organization
-- and the hourly budgets. Secrets are stored only sealed (internal/seal,
-- bound to the endpoint id and field).
CREATE TABLE webhook_endpoints (
    id                   TEXT PRIMARY KEY,
    org_id               TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    url                  TEXT NOT NULL,
    description          TEXT NOT NULL,
    event_types          TEXT NOT NULL,   -- JSON array; [] means every allowed type
    inbox_id             TEXT NOT NULL,   -- '' means every inbox
    status               TEXT NOT NULL,   -- active, paused, disabled
    secret_sealed        BYTEA NOT NULL,
    previous_sealed      BYTEA,
    previous_expires_at  BIGINT NOT NULL, -- 0: no previous secret
    creator_type         TEXT NOT NULL,   -- member or org_key
    creator_id           TEXT NOT NULL,
    can_sms              BOOLEAN NOT NULL,
    can_social           BOOLEAN NOT NULL,
    start_seq            BIGINT NOT NULL, -- events after this reach the endpoint
    failing_since        BIGINT NOT NULL, -- 0: not failing
    failed_attempts      INTEGER NOT NULL, -- failed attempts since failing_since
    created_at           BIGINT NOT NULL,
    updated_at           BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints(org_id, id);

CREATE TABLE webhook_deliveries (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL,
    endpoint_id      TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL,
    event_seq        BIGINT NOT NULL,
    event_type       TEXT NOT NULL,
    payload          TEXT NOT NULL,   -- the JSON body, fixed at fan-out
    status           TEXT NOT NULL,   -- pending, succeeded, failed, dead, skipped
    attempts         INTEGER NOT NULL,
    next_attempt_at  BIGINT NOT NULL, -- due time while pending or failed, else 0
    leased_until     BIGINT NOT NULL, -- a worker holds it until then (in flight)
    last_attempt_at  BIGINT NOT NULL,
    last_status_code INTEGER NOT NULL,
    last_error       TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries(endpoint_id, event_id);

-- How far the dispatcher has fanned out each organization's event log. The
-- log is ordered per organization (events.Append locks per organization), so
-- one cursor per organization never skips a late commit.
CREATE TABLE webhook_cursors (
    org_id   TEXT PRIMARY KEY,
    last_seq BIGINT NOT NULL
);

-- Hourly budgets (tests and replays, redeliveries), shared by every node.
CREATE TABLE webhook_budgets (
    org_id       TEXT NOT NULL,
    kind         TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    used         INTEGER NOT NULL,
    PRIMARY KEY (org_id, kind, window_start)
);

-- +goose Down
DROP TABLE webhook_budgets;
DROP TABLE webhook_cursors;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
