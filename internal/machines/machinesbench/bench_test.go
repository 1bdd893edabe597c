package machinesbench

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestPercentiles(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 20; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	p50, p95 := percentiles(d)
	if p50 != 10*time.Millisecond || p95 != 19*time.Millisecond {
		t.Errorf("p50 %v p95 %v, want 10ms 19ms", p50, p95)
	}
	if p50, p95 := percentiles([]time.Duration{time.Second}); p50 != time.Second || p95 != time.Second {
		t.Errorf("one sample: %v %v", p50, p95)
	}
}

// TestRunOnce runs a single round so the figure printer keeps working; the
// figures themselves are not checked.
func TestRunOnce(t *testing.T) {
	if _, err := exec.LookPath("runsc"); err != nil {
		t.Skip("runsc not installed: run `make machines-setup`")
	}
	if _, err := imageRoot(); err != nil {
		t.Skip(err.Error())
	}
	var out bytes.Buffer
	if err := Run(&out, 1); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"create -> first command result", "bare runsc restore --detach"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
