package machines_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// TestRestartReconciles stops the server while machines run (sandboxes
// outlive it), kills two sandboxes behind its back, and starts a new server
// on the same data dir and database: the live machine is adopted with its
// processes and a single billing interval, the killed one with a snapshot is
// stopped from it and resumes, the killed one without a snapshot is failed.
func TestRestartReconciles(t *testing.T) {
	eachServerWithMachines(t, "restart", func(t *testing.T, cfg app.Config, env *apptest.Env, tok string) {
		a := client{t, env, tok}
		startCounter := func(id string) {
			a.sh(id, "setsid nohup bash -c 'i=0; while true; do i=$((i+1)); echo $i > /root/counter; sleep 0.1; done' >/dev/null 2>&1 < /dev/null &")
			waitCounterAbove(t, a, id, 0)
		}
		live := a.create(map[string]any{"name": "live"})
		startCounter(live.ID)
		snap := a.create(map[string]any{"name": "with snapshot"})
		startCounter(snap.ID)
		a.post(snap.ID, "stop", 200)
		a.post(snap.ID, "resume", 200)
		lost := a.create(map[string]any{"name": "without snapshot"})
		liveCount := counter(t, a, live.ID)
		snapCount := counter(t, a, snap.ID)

		env.Stop() // the App stops; its sandboxes do not
		for _, m := range []machine{snap, lost} {
			sb := strings.ReplaceAll(m.ID, "_", "-")
			if out, err := exec.Command("runsc", "--root", filepath.Join(cfg.DataDir, "runsc"), "delete", "--force", sb).CombinedOutput(); err != nil {
				t.Fatalf("killing %s: %v %s", sb, err, out)
			}
		}
		time.Sleep(500 * time.Millisecond)

		env = apptest.StartConfig(t, cfg)
		a = client{t, env, tok}
		if m := a.get(live.ID); m.State != "running" {
			t.Errorf("live machine after restart: %+v", m)
		}
		waitCounterAbove(t, a, live.ID, liveCount)
		var intervals int
		if err := env.App.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM machine_billing WHERE machine_id = $1`, live.ID).Scan(&intervals); err != nil || intervals != 1 {
			t.Errorf("billing intervals of the adopted machine: %d (%v), want 1", intervals, err)
		}

		m := a.get(snap.ID)
		if m.State != "stopped" || m.StopReason != "host_restart" {
			t.Errorf("killed machine with a snapshot: %+v", m)
		}
		a.post(snap.ID, "resume", 200)
		// It continues from the snapshot taken at its stop, before the
		// values read above.
		if v := waitCounterAbove(t, a, snap.ID, 0); v <= 0 {
			t.Errorf("counter after resume %d", v)
		}
		_ = snapCount

		m = a.get(lost.ID)
		if m.State != "failed" {
			t.Errorf("killed machine without a snapshot: %+v", m)
		}
		if r := env.Do("POST", "/api/v1/machines/"+lost.ID+"/resume", tok, nil); r.Status != 409 {
			t.Errorf("resume of a failed machine: %d %s", r.Status, r.Body)
		}
		for _, id := range []string{live.ID, snap.ID, lost.ID} {
			a.del(id)
		}
	})
}

// TestDeadSandboxIsReaped kills the sandbox processes of two running
// machines behind the server's back, as the host's out-of-memory killer
// does when it takes gVisor's sentry: at the next heartbeat the one with a
// snapshot is stopped from it (stop_reason crashed) and resumes, the one
// without is failed, and the billing of both ends; a healthy machine is
// left running. A command running when its sandbox dies ends at once.
func TestDeadSandboxIsReaped(t *testing.T) {
	eachServerWithMachines(t, "reap", func(t *testing.T, cfg app.Config, env *apptest.Env, tok string) {
		a := client{t, env, tok}
		healthy := a.create(map[string]any{"name": "healthy"})
		snap := a.create(map[string]any{"name": "with snapshot"})
		a.post(snap.ID, "stop", 200)
		a.post(snap.ID, "resume", 200)
		lost := a.create(map[string]any{"name": "without snapshot"})
		// A command is running on lost when its sandbox dies: it ends
		// with 409 within seconds, not at its 60-second timeout.
		ran := make(chan apptest.Response, 1)
		go func() {
			ran <- env.Do("POST", "/api/v1/machines/"+lost.ID+"/run", tok, map[string]any{"command": "sleep 60", "timeout_seconds": 60})
		}()
		time.Sleep(time.Second)
		for _, m := range []machine{snap, lost} {
			sb := strings.ReplaceAll(m.ID, "_", "-")
			out, err := exec.Command("runsc", "--root", filepath.Join(cfg.DataDir, "runsc"), "state", sb).Output()
			if err != nil {
				t.Fatalf("state of %s: %v", sb, err)
			}
			var st struct {
				Pid int `json:"pid"`
			}
			if err := json.Unmarshal(out, &st); err != nil || st.Pid <= 1 {
				t.Fatalf("state of %s: %v %s", sb, err, out)
			}
			if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
				t.Fatalf("killing %s (pid %d): %v", sb, st.Pid, err)
			}
		}
		select {
		case r := <-ran:
			if r.Status != 409 || !strings.Contains(string(r.Body), "invalid_state") {
				t.Errorf("command whose sandbox died: %d %s", r.Status, r.Body)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("command still running 20 s after its sandbox died")
		}
		if err := env.App.Machines.Kick(context.Background()); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for a.get(snap.ID).State == "running" || a.get(lost.ID).State == "running" {
			if time.Now().After(deadline) {
				t.Fatalf("still running 30 s after their sandboxes died: %+v %+v", a.get(snap.ID), a.get(lost.ID))
			}
			time.Sleep(200 * time.Millisecond)
		}
		if m := a.get(snap.ID); m.State != "stopped" || m.StopReason != "crashed" {
			t.Errorf("dead machine with a snapshot: %+v", m)
		}
		if m := a.get(lost.ID); m.State != "failed" || m.StopReason != "crashed" {
			t.Errorf("dead machine without a snapshot: %+v", m)
		}
		for _, id := range []string{snap.ID, lost.ID} {
			var open int
			if err := env.App.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM machine_billing WHERE machine_id = $1 AND ended_at IS NULL`, id).Scan(&open); err != nil || open != 0 {
				t.Errorf("open billing intervals of %s: %d (%v), want 0", id, open, err)
			}
		}
		if m := a.get(healthy.ID); m.State != "running" {
			t.Errorf("healthy machine: %+v", m)
		}
		a.post(snap.ID, "resume", 200)
		if out := a.sh(snap.ID, "echo ok"); !strings.Contains(out, "ok") {
			t.Errorf("after resume: %q", out)
		}
		for _, id := range []string{healthy.ID, snap.ID, lost.ID} {
			a.del(id)
		}
	})
}

// eachServerWithMachines runs fn against a fresh server on each dialect,
// with a token of a new agent that may create, run and manage machines.
func eachServerWithMachines(t *testing.T, agent string, fn func(t *testing.T, cfg app.Config, env *apptest.Env, tok string)) {
	needSandboxes(t)
	for _, d := range storetest.Dialects() {
		t.Run(d.String(), func(t *testing.T) {
			cfg := apptest.Config(t, d)
			env := apptest.StartConfig(t, cfg)
			fn(t, cfg, env, env.NewAgent(agent, auth.ComputeRead, auth.ComputeRun, auth.ComputeAdmin).Token)
		})
	}
}
