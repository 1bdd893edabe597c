package gvisor

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines"
)

// TestSnapshotLeavesRunning forks from a snapshot of a running sandbox: the
// source keeps running (its background process keeps counting, its files
// stay its own), the fork starts from the state at the snapshot.
func TestSnapshotLeavesRunning(t *testing.T) {
	r, img := newRuntime(t)
	ctx := t.Context()
	id := createSandbox(t, r, img, machines.Limits{})
	mustRun(t, r, id, `echo before > /root/marker; echo 0 > /tmp/counter; nohup sh -c 'i=0; while :; do i=$((i+1)); echo $i > /tmp/counter; sleep 0.05; done' >/dev/null 2>&1 &`)
	// The counter is rewritten (truncated, then written) in place, so a
	// read may catch it empty; read again.
	counter := func(sb string) int {
		t.Helper()
		for range 50 {
			if n, err := strconv.Atoi(strings.TrimSpace(mustRun(t, r, sb, "for i in 1 2 3 4 5 6 7 8 9 10; do v=$(cat /tmp/counter); [ -n \"$v\" ] && break; sleep 0.05; done; echo $v"))); err == nil {
				return n
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("%s: the counter is never readable", sb)
		return 0
	}
	waitMore := func(sb string, than int) int {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if n := counter(sb); n > than {
				return n
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the counter stays at %d", sb, than)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitMore(id, 0)

	snap, err := r.Snapshot(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.readMeta(id)
	if err != nil || !m.Running || !slices.Contains(m.Snapshots, snap) {
		t.Fatalf("after Snapshot: %+v %v", m, err)
	}
	mustRun(t, r, id, "echo after > /root/marker")
	waitMore(id, counter(id))

	fid := newID("snapfork")
	if err := r.Fork(ctx, id, snap, machines.SandboxSpec{ID: fid}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Delete(context.Background(), fid) })
	if got := mustRun(t, r, fid, "cat /root/marker"); got != "before\n" {
		t.Errorf("fork sees marker %q, want the state at the snapshot", got)
	}
	waitMore(fid, counter(fid))
	if got := mustRun(t, r, id, "cat /root/marker"); got != "after\n" {
		t.Errorf("source marker %q", got)
	}
	if _, err := r.Snapshot(ctx, "no-such-sandbox"); !errors.Is(err, machines.ErrNotFound) {
		t.Errorf("snapshot of an unknown sandbox: %v", err)
	}
}
