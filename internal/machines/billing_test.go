package machines_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

func waitState(t *testing.T, c client, id, state string, within time.Duration) machine {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		m := c.get(id)
		if m.State == state {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("machine %s is %s after %v, want %s", id, m.State, within, state)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func between(t *testing.T, what string, got, lo, hi int64) {
	t.Helper()
	if got < lo || got > hi {
		t.Errorf("%s = %d, want %d..%d", what, got, lo, hi)
	}
}

// TestBillingAutoStopQuota: seconds are counted only while running, ttl stops
// a machine by itself, and an organization over its machine-time allowance
// can neither create nor resume while its running machines are stopped with a
// snapshot (and resume later with their processes).
func TestBillingAutoStopQuota(t *testing.T) {
	needSandboxes(t)
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := client{t, env, env.NewAgent("bill-a", auth.ComputeRead, auth.ComputeRun, auth.ComputeAdmin).Token}

		t.Run("ttl", func(t *testing.T) {
			a := client{t, env, a.token}
			m := a.create(map[string]any{"ttl_seconds": 2})
			stopped := waitState(t, a, m.ID, "stopped", 8*time.Second)
			if stopped.StopReason != "ttl" {
				t.Errorf("stop_reason %q, want ttl", stopped.StopReason)
			}
			between(t, "charged seconds of a 2 s ttl", stopped.ChargedTimeSeconds, 2, 4)
			a.del(m.ID)
		})

		t.Run("billing", func(t *testing.T) {
			a := client{t, env, a.token}
			m := a.create(map[string]any{"ttl_seconds": 600})
			time.Sleep(2 * time.Second)
			if live := a.get(m.ID).ChargedTimeSeconds; live < 2 || live > 4 {
				t.Errorf("charged while running after 2 s: %d", live)
			}
			s1 := a.post(m.ID, "stop", 200).ChargedTimeSeconds
			between(t, "after 2 s running", s1, 2, 4)
			time.Sleep(1500 * time.Millisecond)
			a.post(m.ID, "resume", 200)
			time.Sleep(1 * time.Second)
			s2 := a.post(m.ID, "stop", 200).ChargedTimeSeconds
			between(t, "after 1 more second running", s2-s1, 1, 3)
			gone := a.env.Must(200, a.env.Do("DELETE", "/api/v1/machines/"+m.ID+"?confirm=true", a.token, nil)).JSON()
			if int64(gone["charged_time_seconds"].(float64)) != s2 {
				t.Errorf("final charge %v, want %d", gone["charged_time_seconds"], s2)
			}
			var open int
			if err := env.App.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM machine_billing WHERE machine_id = $1 AND ended_at IS NULL`, m.ID).Scan(&open); err != nil || open != 0 {
				t.Errorf("open billing intervals after delete: %d (%v)", open, err)
			}
		})

		t.Run("quota", func(t *testing.T) {
			a := client{t, env, a.token}
			m := a.create(map[string]any{"ttl_seconds": 600})
			a.sh(m.ID, "setsid nohup bash -c 'i=0; while true; do i=$((i+1)); echo $i > /root/counter; sleep 0.1; done' >/dev/null 2>&1 < /dev/null &")
			before := waitCounterAbove(t, a, m.ID, 0)
			// Use up the month's allowance with an interval of a machine
			// that is gone.
			ctx := context.Background()
			now := time.Now().UTC()
			monthStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
			allowance := org.Plans[org.PlanPaid].MachineSecondsPerMonth
			ghost := ids.New("mch")
			err := env.App.DB.InTx(ctx, func(tx *store.Tx) error {
				if _, err := tx.ExecContext(ctx, `INSERT INTO machines (id, org_id, agent_id, name, state, size, image, sandbox_id, host, ttl_seconds, auto_stop_at,
					charged_seconds, running_since, alive_at, last_snapshot, forked_from, stop_reason, op, op_until, created_at, updated_at)
					VALUES ($1, $2, 'agt_gone', 'ghost', 'deleted', 'small', 'base', $3, 'elsewhere', 60, 0, $4, 0, 0, '', '', '', '', 0, $5, $5)`,
					ghost, env.Creds.OrganizationID, "ghost-"+ghost[4:], allowance, store.Micros(monthStart)); err != nil {
					return err
				}
				_, err := tx.ExecContext(ctx, `INSERT INTO machine_billing (id, machine_id, org_id, started_at, ended_at) VALUES ($1, $2, $3, $4, $5)`,
					ids.New("mbi"), ghost, env.Creds.OrganizationID, store.Micros(monthStart), store.Micros(monthStart.Add(time.Duration(allowance)*time.Second)))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			r := env.Do("POST", "/api/v1/machines", a.token, nil) // no body: all defaults
			if r.Status != 402 || r.ErrorCode() != "quota_exceeded" || !strings.Contains(string(r.Body), "machine_time") {
				t.Errorf("create over the allowance: %d %s", r.Status, r.Body)
			}
			if err := env.App.Machines.Kick(ctx); err != nil {
				t.Fatal(err)
			}
			stopped := waitState(t, a, m.ID, "stopped", 10*time.Second)
			if stopped.StopReason != "quota" {
				t.Errorf("stop_reason %q, want quota", stopped.StopReason)
			}
			r = env.Do("POST", "/api/v1/machines/"+m.ID+"/resume", a.token, nil)
			if r.Status != 402 || r.ErrorCode() != "quota_exceeded" {
				t.Errorf("resume over the allowance: %d %s", r.Status, r.Body)
			}
			// A new month (here: the usage removed) and the machine resumes
			// from its snapshot with its process.
			err = env.App.DB.InTx(ctx, func(tx *store.Tx) error {
				_, err := tx.ExecContext(ctx, `DELETE FROM machine_billing WHERE machine_id = $1`, ghost)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			a.post(m.ID, "resume", 200)
			waitCounterAbove(t, a, m.ID, before)
			a.del(m.ID)
		})
	})
}
