package machines

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Worker timing.
const (
	// heartbeatEvery is how often running machines' alive_at is refreshed;
	// after a host crash their billing ends at most this much after the
	// last heartbeat.
	heartbeatEvery = 10 * time.Second
	// quotaEvery is how often organizations' machine time is compared with
	// their allowance.
	quotaEvery = 10 * time.Second
	// maxSleep bounds the worker's sleep when nothing is due.
	maxSleep = 30 * time.Second
)

// RunWorker stops machines at auto_stop_at, stops the machines of
// organizations whose allowance is used up, keeps the heartbeat of this
// host's running machines and deletes the machines of deleted agents, until
// ctx ends. One worker runs per server node; due machines are claimed with
// FOR UPDATE SKIP LOCKED so nodes share the work.
func (s *Service) RunWorker(ctx context.Context) {
	wake := make(chan struct{}, 1)
	var force atomic.Bool
	unsub := s.db.Subscribe(Topic, func(payload string) {
		if payload == "" || payload == store.ResetPayload {
			force.Store(true) // Kick, or notifications were lost
		}
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	defer unsub()
	var lastBeat, lastQuota time.Time
	for ctx.Err() == nil {
		now := s.now()
		if force.Swap(false) {
			lastBeat, lastQuota = time.Time{}, time.Time{}
		}
		if now.Sub(lastBeat) >= heartbeatEvery {
			lastBeat = now
			s.heartbeat(ctx)
		}
		if now.Sub(lastQuota) >= quotaEvery {
			lastQuota = now
			s.enforceQuotas(ctx)
			s.removeOrphans(ctx)
		}
		for ctx.Err() == nil {
			n, err := s.stopDue(ctx)
			if err != nil {
				if ctx.Err() == nil {
					s.log.Warn("auto-stop failed", "err", err)
				}
				break
			}
			if n == 0 {
				break
			}
		}
		sleep := min(maxSleep, heartbeatEvery, quotaEvery)
		if next, ok := s.nextDue(ctx); ok {
			sleep = min(sleep, max(next.Sub(s.now()), 10*time.Millisecond))
		}
		t := time.NewTimer(sleep)
		select {
		case <-ctx.Done():
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// Kick wakes the workers of every node for a full round: due machines,
// quotas, heartbeat, machines of deleted agents.
func (s *Service) Kick(ctx context.Context) error { return s.db.Notify(ctx, Topic, "") }

func (s *Service) nextDue(ctx context.Context) (time.Time, bool) {
	var next int64
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MIN(auto_stop_at), 0) FROM machines WHERE state = 'running' AND auto_stop_at > 0 AND host = $1`,
		s.opts.Host).Scan(&next)
	if err != nil || next == 0 {
		return time.Time{}, false
	}
	return store.Time(next), true
}

// stopDue claims one due machine of this host and stops it; it reports how
// many it stopped (0 or 1).
func (s *Service) stopDue(ctx context.Context) (int, error) {
	var m Machine
	found := false
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		now := s.now()
		ms, err := listMachines(ctx, tx, `state = 'running' AND host = $1 AND auto_stop_at > 0 AND auto_stop_at <= $2 AND (op = '' OR op_until < $2)
			ORDER BY auto_stop_at LIMIT 1 FOR UPDATE SKIP LOCKED`, s.opts.Host, store.Micros(now))
		if err != nil || len(ms) == 0 {
			return err
		}
		m, found = ms[0], true
		return s.claim(ctx, tx, m, "stop", StateRunning)
	})
	if err != nil || !found {
		return 0, err
	}
	if err := s.stop(ctx, audit.System, m, StopByTTL); err != nil {
		return 0, err
	}
	s.log.Info("machine stopped at its ttl", "machine", m.ID)
	return 1, nil
}

func (s *Service) heartbeat(ctx context.Context) {
	// The dead first, so that their billing ends at the previous beat.
	s.reapDead(ctx)
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE machines SET alive_at = $1 WHERE state = 'running' AND host = $2`, store.Micros(s.now()), s.opts.Host)
		return err
	})
	if err != nil && ctx.Err() == nil {
		s.log.Warn("machine heartbeat failed", "err", err)
	}
}

// reapDead finds this host's running machines whose sandbox died under
// the server (the host's out-of-memory killer can take gVisor's sentry when
// a machine fills its memory limit): as a restart would (Reconcile), their
// billing ends at the last heartbeat and they become stopped from their
// last snapshot, or failed without one, with stop_reason crashed. A machine
// is claimed before it is judged, and judged again under the claim, so an
// operation in progress (a resume whose sandbox is not up yet) is never
// taken for a death.
func (s *Service) reapDead(ctx context.Context) {
	running, err := listMachines(ctx, s.db, `state = 'running' AND host = $1 ORDER BY id`, s.opts.Host)
	if err != nil || len(running) == 0 {
		return
	}
	dead := func() map[string]SandboxState {
		sandboxes, err := s.rt.List(ctx)
		if err != nil {
			if !errors.Is(err, ErrUnavailable) && ctx.Err() == nil {
				s.log.Warn("machine health check failed", "err", err)
			}
			return nil
		}
		listed := make(map[string]SandboxState, len(sandboxes))
		for _, sb := range sandboxes {
			listed[sb.ID] = sb
		}
		out := map[string]SandboxState{}
		for _, m := range running {
			if sb, ok := listed[m.sandboxID]; !ok || sb.Status != StatusRunning {
				sb.ID = m.sandboxID
				out[m.sandboxID] = sb
			}
		}
		return out
	}
	suspects := dead()
	for _, m := range running {
		if _, ok := suspects[m.sandboxID]; !ok {
			continue
		}
		if err := s.db.InTx(ctx, func(tx *store.Tx) error { return s.claim(ctx, tx, m, "reap", StateRunning) }); err != nil {
			continue // an operation is in progress, or the state changed
		}
		sb, stillDead := dead()[m.sandboxID]
		if !stillDead {
			s.release(ctx, m.ID, "reap")
			continue
		}
		lastSnap := m.lastSnapshot
		if len(sb.Snapshots) > 0 {
			lastSnap = sb.Snapshots[len(sb.Snapshots)-1]
		}
		s.log.Warn("machine's sandbox died while running", "machine", m.ID, "snapshot", lastSnap)
		err := s.db.InTx(ctx, func(tx *store.Tx) error {
			var aliveAt int64
			if err := tx.QueryRowContext(ctx, `SELECT alive_at FROM machines WHERE id = $1`, m.ID).Scan(&aliveAt); err != nil {
				return err
			}
			at := store.Time(max(aliveAt, m.runningSince))
			if lastSnap != "" {
				return s.setStopped(ctx, tx, m, lastSnap, StopCrashed, at)
			}
			if err := closeInterval(ctx, tx, m.ID, store.Micros(at)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'failed', stop_reason = $1, auto_stop_at = 0, op = '', op_until = 0,
				updated_at = $2 WHERE id = $3`, StopCrashed, store.Micros(s.now()), m.ID); err != nil {
				return err
			}
			return tx.Notify(ctx, Topic, m.ID)
		})
		if err != nil {
			s.log.Error("could not record a machine whose sandbox died", "machine", m.ID, "err", err)
			s.release(ctx, m.ID, "reap")
		}
	}
}

// enforceQuotas stops, with a snapshot, the running machines on this host of
// every organization whose machine time is used up.
func (s *Service) enforceQuotas(ctx context.Context) {
	running, err := listMachines(ctx, s.db, `state = 'running' AND host = $1 ORDER BY id`, s.opts.Host)
	if err != nil {
		s.log.Warn("quota check failed", "err", err)
		return
	}
	over := map[string]bool{}
	for _, m := range running {
		v, seen := over[m.orgID]
		if !seen {
			v = s.overAllowance(ctx, m.orgID)
			over[m.orgID] = v
		}
		if !v {
			continue
		}
		if err := s.db.InTx(ctx, func(tx *store.Tx) error { return s.claim(ctx, tx, m, "stop", StateRunning) }); err != nil {
			continue // busy: the next round takes it
		}
		if err := s.stop(ctx, audit.System, m, StopByQuota); err != nil {
			s.log.Warn("quota stop failed", "machine", m.ID, "err", err)
			continue
		}
		s.log.Info("machine stopped: machine time allowance used up", "machine", m.ID, "org", m.orgID)
	}
}

func (s *Service) overAllowance(ctx context.Context, orgID string) bool {
	o, err := org.GetOrganization(ctx, s.db, orgID)
	if err != nil {
		return false
	}
	used, err := usedThisMonth(ctx, s.db, orgID, s.now())
	return err == nil && used >= org.Plans[o.Plan].MachineSecondsPerMonth
}

// removeOrphans deletes the machines of agents that no longer exist.
func (s *Service) removeOrphans(ctx context.Context) {
	ms, err := listMachines(ctx, s.db, `state <> 'deleted' AND host = $1 AND NOT EXISTS (SELECT 1 FROM agents a WHERE a.id = machines.agent_id) ORDER BY id`, s.opts.Host)
	if err != nil {
		return
	}
	for _, m := range ms {
		if err := s.db.InTx(ctx, func(tx *store.Tx) error { return s.claim(ctx, tx, m, "delete", m.State) }); err != nil {
			continue
		}
		if err := s.delete(ctx, audit.System, m); err != nil {
			s.log.Warn("could not delete the machine of a deleted agent", "machine", m.ID, "err", err)
		}
	}
}

// Reconcile brings this host's machine rows and the runtime's sandboxes into
// agreement after a restart (see the package documentation, Recovery). It
// runs before the server takes requests.
func (s *Service) Reconcile(ctx context.Context) error {
	sandboxes, err := s.rt.List(ctx)
	if err != nil {
		return err
	}
	bySandbox := map[string]SandboxState{}
	for _, sb := range sandboxes {
		bySandbox[sb.ID] = sb
	}
	rows, err := listMachines(ctx, s.db, `host = $1 AND state <> 'deleted' ORDER BY id`, s.opts.Host)
	if err != nil {
		return err
	}
	live := map[string]bool{}
	var errs []error
	for _, m := range rows {
		live[m.sandboxID] = true
		sb, ok := bySandbox[m.sandboxID]
		if err := s.reconcileOne(ctx, m, sb, ok); err != nil {
			errs = append(errs, err)
		}
	}
	for _, sb := range sandboxes {
		if live[sb.ID] {
			continue
		}
		s.log.Info("removing a sandbox without a machine", "sandbox", sb.ID)
		if err := s.rt.Delete(ctx, sb.ID); err != nil && !errors.Is(err, ErrNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Service) reconcileOne(ctx context.Context, m Machine, sb SandboxState, exists bool) error {
	lastSnap := m.lastSnapshot
	if exists && len(sb.Snapshots) > 0 {
		lastSnap = sb.Snapshots[len(sb.Snapshots)-1]
	}
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		// This node owns its host's machines now: leases of the previous
		// process are void.
		if _, err := tx.ExecContext(ctx, `UPDATE machines SET op = '', op_until = 0 WHERE id = $1`, m.ID); err != nil {
			return err
		}
		var aliveAt int64
		if err := tx.QueryRowContext(ctx, `SELECT alive_at FROM machines WHERE id = $1`, m.ID).Scan(&aliveAt); err != nil {
			return err
		}
		running := exists && sb.Status == StatusRunning
		switch {
		case !exists && m.op == "delete":
			// A crash between removing the sandbox and committing.
			if err := closeInterval(ctx, tx, m.ID, max(aliveAt, m.runningSince)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'deleted', last_snapshot = '', auto_stop_at = 0, updated_at = $1 WHERE id = $2`,
				store.Micros(s.now()), m.ID)
			return err
		case !exists && (m.State == StateStopped || m.State == StateRunning):
			// Sandbox and snapshots are gone (data dir lost): nothing to resume.
			s.log.Warn("machine's sandbox and snapshots are gone: failed", "machine", m.ID)
			if err := closeInterval(ctx, tx, m.ID, max(aliveAt, m.runningSince)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'failed', last_snapshot = '', stop_reason = $1, auto_stop_at = 0, updated_at = $2 WHERE id = $3`,
				StopHostRestart, store.Micros(s.now()), m.ID)
			return err
		case m.State == StateRunning && running:
			s.log.Info("adopted a running machine", "machine", m.ID)
			return nil
		case m.State == StateRunning || m.State == StateCreating:
			// It should run but does not (a crash between checkpoint and
			// commit, or the sandbox died with the host).
			at := store.Time(max(aliveAt, m.runningSince))
			if m.runningSince == 0 {
				at = s.now()
			}
			if lastSnap == "" {
				if err := closeInterval(ctx, tx, m.ID, store.Micros(at)); err != nil {
					return err
				}
				s.log.Warn("machine's sandbox is gone and it has no snapshot: failed", "machine", m.ID)
				_, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'failed', stop_reason = $1, auto_stop_at = 0, updated_at = $2 WHERE id = $3`,
					StopHostRestart, store.Micros(s.now()), m.ID)
				return err
			}
			reason := StopHostRestart
			if exists && sb.Status == StatusStopped && m.op == "stop" {
				reason = StopByUser
			}
			return s.setStopped(ctx, tx, m, lastSnap, reason, at)
		case m.State == StateStopped && running:
			// A crash between restore and commit: it runs, so bill it from now.
			s.log.Info("adopted a machine resumed before a restart", "machine", m.ID)
			started := s.now()
			if _, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'running', stop_reason = '', auto_stop_at = $1, updated_at = $2 WHERE id = $3`,
				store.Micros(started.Add(time.Duration(m.TTLSeconds)*time.Second)), store.Micros(started), m.ID); err != nil {
				return err
			}
			return openInterval(ctx, tx, m, ids.New("mbi"), store.Micros(started))
		case m.State == StateStopped && lastSnap != m.lastSnapshot:
			_, err := tx.ExecContext(ctx, `UPDATE machines SET last_snapshot = $1 WHERE id = $2`, lastSnap, m.ID)
			return err
		}
		return nil
	})
}
