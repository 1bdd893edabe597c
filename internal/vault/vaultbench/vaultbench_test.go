package vaultbench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestRunPrintsFigures keeps the figure printer working (a short run; the
// figures themselves are not judged here).
func TestRunPrintsFigures(t *testing.T) {
	var out bytes.Buffer
	if err := Run(&out, 200*time.Millisecond, 4); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GET /api/v1/me", "GET /api/v1/vault/{id}/totp", "GET /api/v1/vault/{id} ", "[sync per read]", "req/s", "cpu/req"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for len(lines) > 0 && !strings.HasPrefix(lines[0], "endpoint") {
		lines = lines[1:]
	}
	if len(lines) != 6 {
		t.Fatalf("want a header and 5 endpoints:\n%s", out.String())
	}
	for _, line := range lines[1:] {
		// endpoint (several words), req/s, p50, p99, errors, ratio, cpu/req
		if f := strings.Fields(line); len(f) < 8 || f[len(f)-3] != "0" {
			t.Fatalf("errors in %q", line)
		}
	}
}
