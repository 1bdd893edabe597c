package bench

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestFigures runs each benchmark briefly so they keep working; the real
// runs (cmd/agentsvc-bench) are longer. It checks that figures are printed,
// not their values.
func TestFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers and sends mail")
	}
	var out bytes.Buffer
	if err := RunIngest(&out, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := RunArrivalToEvent(&out, 50, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := RunLongPolls(&out, 100); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"msg/s", "full pipeline", "sender allowed: stored (no screening)", "p99", "100 answered (100 with the event)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	t.Log("\n" + out.String())
}

// TestPrintFigures runs the full-length benchmarks when AGENTSVC_BENCH=1:
//
//	AGENTSVC_BENCH=1 go test -run PrintFigures -v -timeout 10m ./internal/email/inbound/bench
func TestPrintFigures(t *testing.T) {
	if os.Getenv("AGENTSVC_BENCH") != "1" {
		t.Skip("set AGENTSVC_BENCH=1 to run the full benchmarks")
	}
	for _, run := range []func(w *bytes.Buffer) error{
		func(w *bytes.Buffer) error { return RunLongPolls(w, 10000) },
		func(w *bytes.Buffer) error { return RunArrivalToEvent(w, 100, 10*time.Second) },
		func(w *bytes.Buffer) error { return RunIngest(w, 10*time.Second) },
	} {
		var out bytes.Buffer
		err := run(&out)
		t.Log("\n" + out.String())
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMain lets RunLongPolls re-execute this test binary as its client
// process.
func TestMain(m *testing.M) {
	PollClientMain()
	os.Exit(m.Run())
}
