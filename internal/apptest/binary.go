package apptest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BuildBinary compiles the agentsvc command into the test's temp dir, for
// tests that must kill a real server process (crash tests, the CLI test).
func BuildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agentsvc")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/agentsvc/agentsvc/cmd/agentsvc")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build agentsvc: %v\n%s", err, out)
	}
	return bin
}

// FreeAddr returns a loopback address with a port that was free a moment
// ago, for a server started in another process.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
