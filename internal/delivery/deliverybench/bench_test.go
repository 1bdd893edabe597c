package deliverybench

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestRunPrintsFigures runs a short pass (AGENTSVC_BENCH=1 for a full one).
func TestRunPrintsFigures(t *testing.T) {
	d := 500 * time.Millisecond
	if os.Getenv("AGENTSVC_BENCH") != "" {
		d = 10 * time.Second
	}
	var buf bytes.Buffer
	if err := Run(&buf, d); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + buf.String())
	if !strings.Contains(buf.String(), "messages/s") || strings.Contains(buf.String(), "delivered 0 ") {
		t.Errorf("figures:\n%s", buf.String())
	}
}
