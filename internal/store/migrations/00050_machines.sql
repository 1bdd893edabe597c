-- +goose Up
-- Machines: one row per machine (kept after delete, for billing and audit),
-- its billing intervals, its exposed ports, and the secret that signs
-- desktop URLs. Times are integer microseconds (store.Micros).

CREATE TABLE machines (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    -- No foreign key: a machine's row (and its billing) outlives its agent;
    -- the worker deletes the sandboxes of agents that are gone.
    agent_id       TEXT NOT NULL,
    name           TEXT NOT NULL,
    state          TEXT NOT NULL,
    size           TEXT NOT NULL,
    image          TEXT NOT NULL,
    sandbox_id     TEXT NOT NULL UNIQUE,
    host           TEXT NOT NULL,
    ttl_seconds    BIGINT NOT NULL,
    auto_stop_at   BIGINT NOT NULL,
    -- Billing: whole seconds of closed intervals, and the start of the open
    -- one (0 when not running). machine_billing holds every interval.
    charged_seconds BIGINT NOT NULL,
    running_since  BIGINT NOT NULL,
    -- Heartbeat of the worker while running; a crashed host's open interval
    -- is closed here, not at the time of the restart.
    alive_at       BIGINT NOT NULL,
    last_snapshot  TEXT NOT NULL,
    forked_from    TEXT NOT NULL,
    stop_reason    TEXT NOT NULL,
    -- The lifecycle operation in progress (create, stop, resume, delete,
    -- fork) and when its lease runs out; '' when none.
    op             TEXT NOT NULL,
    op_until       BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX machines_agent ON machines(org_id, agent_id, id);
CREATE INDEX machines_due ON machines(state, auto_stop_at);

CREATE TABLE machine_billing (
    id         TEXT PRIMARY KEY,
    machine_id TEXT NOT NULL REFERENCES machines(id) ON DELETE CASCADE,
    org_id     TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    ended_at   BIGINT
);
-- At most one open interval per machine: a restart can never open a second.
CREATE UNIQUE INDEX machine_billing_open ON machine_billing(machine_id) WHERE ended_at IS NULL;
CREATE INDEX machine_billing_org ON machine_billing(org_id, started_at);

CREATE TABLE machine_ports (
    machine_id TEXT NOT NULL REFERENCES machines(id) ON DELETE CASCADE,
    port       INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (machine_id, port)
);

CREATE TABLE machine_secrets (
    name       TEXT PRIMARY KEY,
    value      BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE machine_secrets;
DROP TABLE machine_ports;
DROP TABLE machine_billing;
DROP TABLE machines;
