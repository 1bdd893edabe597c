-- +goose Up
-- Platform: organizations, people, credentials, agents, inboxes, the audit
-- history, the event log and idempotency records. Times are integer
-- microseconds since the Unix epoch (see store.Micros).

CREATE TABLE organizations (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    plan        TEXT NOT NULL,
    mail_domain TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE TABLE members (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    email         TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX members_org ON members(org_id);

CREATE TABLE org_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    capabilities TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    created_by   TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    revoked_at   BIGINT,
    last_used_at BIGINT
);
CREATE INDEX org_keys_org ON org_keys(org_id, id);

CREATE TABLE agents (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    metadata   TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX agents_org ON agents(org_id, id);

CREATE TABLE agent_tokens (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    agent_id     TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    capabilities TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    revoked_at   BIGINT,
    last_used_at BIGINT
);
CREATE INDEX agent_tokens_agent ON agent_tokens(agent_id, id);

CREATE TABLE inboxes (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    agent_id     TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    address      TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    created_at   BIGINT NOT NULL
);
CREATE INDEX inboxes_agent ON inboxes(agent_id, id);
CREATE INDEX inboxes_org ON inboxes(org_id, id);

-- Append-only: triggers in the next migration refuse UPDATE and DELETE.
-- No foreign keys, so the history outlives what it talks about.
CREATE TABLE audit_events (
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
CREATE INDEX audit_events_org ON audit_events(org_id, id);
CREATE INDEX audit_events_target ON audit_events(org_id, target_id, id);
CREATE INDEX audit_events_actor ON audit_events(org_id, actor_id, id);

-- The organization's event log (outbox): appended in the same transaction as
-- the change it reports. seq is the events API cursor and the webhook sequence.
CREATE TABLE events (
    seq         BIGSERIAL PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    org_id      TEXT NOT NULL,
    inbox_id    TEXT NOT NULL,
    type        TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    data        TEXT NOT NULL
);
CREATE INDEX events_org ON events(org_id, seq);
CREATE INDEX events_inbox ON events(inbox_id, seq);

CREATE TABLE idempotency_keys (
    scope            TEXT PRIMARY KEY,
    request_hash     TEXT NOT NULL,
    state            TEXT NOT NULL,
    response_status  INTEGER NOT NULL,
    response_headers TEXT NOT NULL,
    response_body    BYTEA,
    created_at       BIGINT NOT NULL
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE events;
DROP TABLE audit_events;
DROP TABLE inboxes;
DROP TABLE agent_tokens;
DROP TABLE agents;
DROP TABLE org_keys;
DROP TABLE members;
DROP TABLE organizations;
