package webhooksbench

import (
	"os"
	"testing"
	"time"
)

// TestRun runs the benchmark briefly so it keeps working; the figures come
// from `go test -run TestRun -v -args -long` style runs or a command.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmark")
	}
	d := 500 * time.Millisecond
	if os.Getenv("WEBHOOKSBENCH_SECONDS") != "" {
		d = 5 * time.Second
	}
	if err := Run(testWriter{t}, d); err != nil {
		t.Fatal(err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
