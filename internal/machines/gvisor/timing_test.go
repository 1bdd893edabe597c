package gvisor

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines"
)

// TestTimings measures the lifecycle operations beside bare runsc and logs
// the medians (go test -v -run Timings). It checks only that everything
// works; the figures depend on the host's load. The full benchmark with 20
// runs and p95 is the service's.
func TestTimings(t *testing.T) {
	r, img := newRuntime(t)
	ctx := t.Context()
	const n = 5
	var create, execRT, bareExec, checkpoint, restore, fork []time.Duration
	for i := range n {
		id := newID("timing")
		start := time.Now()
		if err := r.Create(ctx, machines.SandboxSpec{ID: id, Image: img}); err != nil {
			t.Fatal(err)
		}
		mustRun(t, r, id, "true")
		create = append(create, time.Since(start))
		t.Cleanup(func() { _ = r.Delete(context.Background(), id) })

		start = time.Now()
		mustRun(t, r, id, "true")
		execRT = append(execRT, time.Since(start))

		start = time.Now()
		if out, err := exec.CommandContext(ctx, r.runsc, "--root", r.root, "exec", id, "/bin/true").CombinedOutput(); err != nil {
			t.Fatalf("bare runsc exec: %v %s", err, out)
		}
		bareExec = append(bareExec, time.Since(start))

		start = time.Now()
		snap, err := r.Checkpoint(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		checkpoint = append(checkpoint, time.Since(start))

		start = time.Now()
		if err := r.Restore(ctx, id, snap); err != nil {
			t.Fatal(err)
		}
		mustRun(t, r, id, "true")
		restore = append(restore, time.Since(start))

		if i == 0 {
			// One fork is enough: it is a restore into a new sandbox.
			fid := newID("timing-fork")
			start = time.Now()
			if err := r.Fork(ctx, id, snap, machines.SandboxSpec{ID: fid}); err != nil {
				t.Fatal(err)
			}
			mustRun(t, r, fid, "true")
			fork = append(fork, time.Since(start))
			t.Cleanup(func() { _ = r.Delete(context.Background(), fid) })
		}
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{
		{"create -> first exec result", create},
		{"exec round trip (bash -c true)", execRT},
		{"bare runsc exec /bin/true", bareExec},
		{"checkpoint (stop)", checkpoint},
		{"restore -> first exec result", restore},
		{"fork -> first exec result", fork},
	} {
		t.Logf("%-32s median %v (n=%d)", m.name, median(m.d).Round(time.Millisecond), len(m.d))
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
