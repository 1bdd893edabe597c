package gvisor

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
	"github.com/agentsvc/agentsvc/internal/machines/image"
)

// The tests run real sandboxes. They need root, runsc
// (scripts/ensure-runsc.sh) and the base image, which is built on first use
// into AGENTSVC_TEST_DATA_DIR (default /var/tmp/agentsvc-test) and reused.
// Only a missing runsc makes them skip.

// testName and testSubnet keep this test process's interfaces, iptables
// chains, cgroups and addresses apart from a service and from other test
// processes on the same host (several engineers' runs of this package at
// once would otherwise tear down each other's namespaces): TestMain claims
// one of 64 slots with a lock file that the kernel releases when the
// process ends.
var (
	testName   = "agt"
	testSubnet = netip.MustParsePrefix("10.201.0.0/16")
)

func TestMain(m *testing.M) {
	if slot, ok := claimTestSlot(); ok {
		testName = fmt.Sprintf("g%c%c", 'a'+slot/26, 'a'+slot%26)
		testSubnet = netip.MustParsePrefix(fmt.Sprintf("10.202.%d.0/22", slot*4))
	}
	os.Exit(m.Run())
}

// claimTestSlot locks DATA_DIR/netlocks-gvisor/<n>.lock for the life of the
// process. Without a usable data dir (no root) it reports false and the
// fixed name is used; the tests then fail or skip on their own.
func claimTestSlot() (int, bool) {
	dir := filepath.Join(testDataDir(), "netlocks-gvisor")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, false
	}
	for i := range 64 {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%02d.lock", i)), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return 0, false
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			return i, true // f stays open (and locked) until the process exits
		}
		f.Close()
	}
	return 0, false
}

func testDataDir() string {
	if d := os.Getenv("AGENTSVC_TEST_DATA_DIR"); d != "" {
		return d
	}
	return "/var/tmp/agentsvc-test"
}

func testImage(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("runsc"); err != nil {
		t.Skip("runsc not installed: run scripts/ensure-runsc.sh to run the sandbox tests")
	}
	if os.Geteuid() != 0 {
		t.Fatal("the sandbox tests need root (network namespaces, iptables, cgroups)")
	}
	dataDir := testDataDir()
	dir, ok := image.Ready(dataDir, "bookworm", image.Base)
	if !ok {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		var err error
		if dir, err = image.Build(ctx, image.Options{DataDir: dataDir, Suite: "bookworm"}); err != nil {
			t.Fatalf("building the test image: %v", err)
		}
	}
	installAgent.Do(func() { installErr = agent.EnsureInstalled(context.Background(), dir) })
	if installErr != nil {
		t.Fatalf("installing the agent into the test image: %v", installErr)
	}
	return dir
}

// The agent is built and installed into the test image once per test binary
// (a few seconds with a warm build cache).
var (
	installAgent sync.Once
	installErr   error
)

// newRuntime returns a Runtime over a fresh data directory and the image.
func newRuntime(t *testing.T) (*Runtime, string) {
	t.Helper()
	img := testImage(t)
	dataDir := t.TempDir()
	r, err := New(Options{DataDir: dataDir, Subnet: testSubnet, Name: testName})
	if err != nil {
		t.Fatal(err)
	}
	return r, img
}

var idSeq atomic.Int64

func newID(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, os.Getpid()%100000, idSeq.Add(1))
}

// createSandbox creates a sandbox and deletes it when the test ends.
func createSandbox(t *testing.T, r *Runtime, img string, lim machines.Limits) string {
	t.Helper()
	id := newID(strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))[:min(20, len(t.Name()))])
	if err := r.Create(t.Context(), machines.SandboxSpec{ID: id, Image: img, Limits: lim}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() {
		if err := r.Delete(context.Background(), id); err != nil && !errorsIsNotFound(err) {
			t.Errorf("Delete %s: %v", id, err)
		}
	})
	return id
}

func errorsIsNotFound(err error) bool {
	return err != nil && strings.Contains(err.Error(), machines.ErrNotFound.Error())
}

// run executes command in id and fails the test on a runtime error.
func run(t *testing.T, r *Runtime, id, command string) machines.ExecResult {
	t.Helper()
	res, err := r.Exec(t.Context(), id, machines.ExecRequest{Command: command, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Exec %q: %v", command, err)
	}
	return res
}

// mustRun is run that also requires exit status 0 and returns stdout.
func mustRun(t *testing.T, r *Runtime, id, command string) string {
	t.Helper()
	res := run(t, r, id, command)
	if res.ExitCode != 0 {
		t.Fatalf("%q: exit %d, stderr %q", command, res.ExitCode, res.Stderr)
	}
	return string(res.Stdout)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, filepath.Join(dir, e.Name()))
	}
	return names
}

func mustAddr(ip net.IP) netip.Addr {
	a, _ := netip.AddrFromSlice(ip.To4())
	return a
}
