package machines

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/store"
)

// State is a machine's lifecycle state (see the package documentation).
type State string

const (
	StateCreating State = "creating"
	StateReady    State = "ready"
	StateRunning  State = "running"
	StateStopped  State = "stopped"
	StateFailed   State = "failed"
	StateDeleted  State = "deleted"
)

// Stop reasons, in Machine.StopReason.
const (
	StopByUser      = "user"
	StopByTTL       = "ttl"
	StopByQuota     = "quota"
	StopHostRestart = "host_restart"
	// StopCrashed: the sandbox died while the server ran (the host's
	// out-of-memory killer can take gVisor's own process when a machine
	// fills its memory limit); found by the worker's heartbeat.
	StopCrashed = "crashed"
)

// Size is a size class: the CPU and memory limits a machine runs with.
type Size struct {
	Name        string
	CPUs        float64
	MemoryBytes int64
}

// Sizes are the size classes on offer. The limits are enforced by the
// runtime (cgroup CPU quota and memory limit; the memory limit covers the
// sandbox's own kernel too).
var Sizes = map[string]Size{
	"small":  {Name: "small", CPUs: 1, MemoryBytes: 1 << 30},
	"medium": {Name: "medium", CPUs: 2, MemoryBytes: 4 << 30},
	"large":  {Name: "large", CPUs: 4, MemoryBytes: 8 << 30},
}

// Images a machine can boot from.
const (
	ImageBase    = "base"
	ImageDesktop = "desktop"
)

// Limits for create.
const (
	DefaultSize       = "small"
	DefaultTTLSeconds = 3600
	MaxTTLSeconds     = 7 * 24 * 3600
	MaxNameLength     = 100
	MaxInjected       = 20
)

// Machine is what the API shows of a machine.
type Machine struct {
	ID                 string     `json:"id" doc:"Machine id (mch_…)."`
	Name               string     `json:"name"`
	State              State      `json:"state" enum:"creating,ready,running,stopped,failed,deleted" doc:"See the state machine in the API description of createMachine."`
	Size               string     `json:"size" doc:"small (1 CPU, 1 GiB), medium (2 CPUs, 4 GiB) or large (4 CPUs, 8 GiB)."`
	Image              string     `json:"image" doc:"base or desktop."`
	CPUs               float64    `json:"cpus" doc:"CPU limit in cores, from the size."`
	MemoryBytes        int64      `json:"memory_bytes" doc:"Memory limit, from the size."`
	TTLSeconds         int64      `json:"ttl_seconds" doc:"Each running period ends automatically after this many seconds."`
	AutoStopAt         *time.Time `json:"auto_stop_at,omitempty" doc:"When the running machine is stopped automatically; absent unless running."`
	ChargedTimeSeconds int64      `json:"charged_time_seconds" doc:"Billable seconds so far: every running period, in whole seconds rounded up."`
	StopReason         string     `json:"stop_reason,omitempty" doc:"Why the machine last stopped: user, ttl, quota, host_restart or crashed (its sandbox died while running)."`
	ForkedFrom         string     `json:"forked_from,omitempty" doc:"The machine this one was forked from."`
	CreatedAt          time.Time  `json:"created_at"`
	UpdatedAt          time.Time  `json:"updated_at"`

	orgID, agentID, sandboxID, host string
	lastSnapshot, op                string
	opUntil, runningSince           int64
	chargedClosed                   int64
}

// AgentID is the agent that owns the machine.
func (m Machine) AgentID() string { return m.agentID }

const machineColumns = `id, org_id, agent_id, name, state, size, image, sandbox_id, host, ttl_seconds, auto_stop_at,
	charged_seconds, running_since, last_snapshot, forked_from, stop_reason, op, op_until, created_at, updated_at`

func scanMachine(row interface{ Scan(...any) error }, now time.Time) (Machine, error) {
	var (
		m                                   Machine
		state                               string
		autoStop, created, updated, running int64
	)
	err := row.Scan(&m.ID, &m.orgID, &m.agentID, &m.Name, &state, &m.Size, &m.Image, &m.sandboxID, &m.host, &m.TTLSeconds, &autoStop,
		&m.chargedClosed, &running, &m.lastSnapshot, &m.ForkedFrom, &m.StopReason, &m.op, &m.opUntil, &created, &updated)
	if err != nil {
		return Machine{}, err
	}
	m.State = State(state)
	m.runningSince = running
	if autoStop > 0 && m.State == StateRunning {
		t := store.Time(autoStop)
		m.AutoStopAt = &t
	}
	m.CreatedAt, m.UpdatedAt = store.Time(created), store.Time(updated)
	m.ChargedTimeSeconds = m.chargedClosed
	if running > 0 {
		m.ChargedTimeSeconds += billedSeconds(running, store.Micros(now))
	}
	if sz, ok := Sizes[m.Size]; ok {
		m.CPUs, m.MemoryBytes = sz.CPUs, sz.MemoryBytes
	}
	return m, nil
}

// billedSeconds is the length of [from, to) (microseconds) in whole seconds,
// rounded up: per-second billing.
func billedSeconds(from, to int64) int64 {
	if to <= from {
		return 0
	}
	return (to - from + 999_999) / 1_000_000
}

// getMachine reads a machine of agentID (any agent when agentID is "").
// Deleted machines and another agent's are apierr 404.
func getMachine(ctx context.Context, q store.Querier, orgID, agentID, id string) (Machine, error) {
	row := q.QueryRowContext(ctx, `SELECT `+machineColumns+` FROM machines WHERE id = $1 AND org_id = $2 AND ($3 = '' OR agent_id = $3) AND state <> 'deleted'`,
		id, orgID, agentID)
	m, err := scanMachine(row, time.Now())
	if errors.Is(err, sql.ErrNoRows) {
		return Machine{}, apierr.NotFound("machine")
	}
	if err != nil {
		return Machine{}, fmt.Errorf("read machine: %w", err)
	}
	return m, nil
}

// getMachineByID reads a machine by id alone (workers, the port proxy).
func getMachineByID(ctx context.Context, q store.Querier, id string) (Machine, error) {
	m, err := scanMachine(q.QueryRowContext(ctx, `SELECT `+machineColumns+` FROM machines WHERE id = $1`, id), time.Now())
	if errors.Is(err, sql.ErrNoRows) {
		return Machine{}, apierr.NotFound("machine")
	}
	if err != nil {
		return Machine{}, fmt.Errorf("read machine: %w", err)
	}
	return m, nil
}

func listMachines(ctx context.Context, q store.Querier, query string, args ...any) ([]Machine, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+machineColumns+` FROM machines WHERE `+query, args...)
	if err != nil {
		return nil, fmt.Errorf("list machines: %w", err)
	}
	defer rows.Close()
	now := time.Now()
	out := []Machine{}
	for rows.Next() {
		m, err := scanMachine(rows, now)
		if err != nil {
			return nil, fmt.Errorf("list machines: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// openInterval starts billing machine m at at.
func openInterval(ctx context.Context, tx *store.Tx, m Machine, id string, at int64) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO machine_billing (id, machine_id, org_id, started_at, ended_at) VALUES ($1, $2, $3, $4, NULL)`,
		id, m.ID, m.orgID, at); err != nil {
		return fmt.Errorf("open billing interval: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE machines SET running_since = $1, alive_at = $1 WHERE id = $2`, at, m.ID); err != nil {
		return fmt.Errorf("open billing interval: %w", err)
	}
	return nil
}

// closeInterval stops billing machine id at at (never before the interval's
// start) and adds the interval's seconds to the machine's total. Without an
// open interval it does nothing, so closing twice bills once.
func closeInterval(ctx context.Context, tx *store.Tx, id string, at int64) error {
	var start int64
	err := tx.QueryRowContext(ctx, `SELECT started_at FROM machine_billing WHERE machine_id = $1 AND ended_at IS NULL`, id).Scan(&start)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.ExecContext(ctx, `UPDATE machines SET running_since = 0 WHERE id = $1`, id)
		return err
	}
	if err != nil {
		return fmt.Errorf("close billing interval: %w", err)
	}
	at = max(at, start)
	if _, err := tx.ExecContext(ctx, `UPDATE machine_billing SET ended_at = $1 WHERE machine_id = $2 AND ended_at IS NULL`, at, id); err != nil {
		return fmt.Errorf("close billing interval: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE machines SET charged_seconds = charged_seconds + $1, running_since = 0 WHERE id = $2`,
		billedSeconds(start, at), id); err != nil {
		return fmt.Errorf("close billing interval: %w", err)
	}
	return nil
}

// usedThisMonth is the organization's machine time (seconds) in the calendar
// month (UTC) of now, open intervals counted up to now.
func usedThisMonth(ctx context.Context, q store.Querier, orgID string, now time.Time) (int64, error) {
	y, mo, _ := now.UTC().Date()
	monthStart := store.Micros(time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC))
	nowUS := store.Micros(now)
	rows, err := q.QueryContext(ctx, `SELECT started_at, ended_at FROM machine_billing WHERE org_id = $1 AND (ended_at IS NULL OR ended_at > $2)`,
		orgID, monthStart)
	if err != nil {
		return 0, fmt.Errorf("machine time used: %w", err)
	}
	defer rows.Close()
	var total int64
	for rows.Next() {
		var start int64
		var end sql.NullInt64
		if err := rows.Scan(&start, &end); err != nil {
			return 0, fmt.Errorf("machine time used: %w", err)
		}
		to := nowUS
		if end.Valid {
			to = end.Int64
		}
		total += billedSeconds(max(start, monthStart), to)
	}
	return total, rows.Err()
}

// sandboxIDFor derives the runtime's sandbox id ([a-z0-9-]) from a machine id.
func sandboxIDFor(machineID string) string {
	return strings.ReplaceAll(machineID, "_", "-")
}
