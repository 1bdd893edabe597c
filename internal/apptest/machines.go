package apptest

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/machines/gvisor"
)

// TestDataDir holds what tests share across runs: the machine base image
// (built once by scripts/ensure-image.sh or the gvisor tests).
func TestDataDir() string {
	if d := os.Getenv("AGENTSVC_TEST_DATA_DIR"); d != "" {
		return d
	}
	return "/var/tmp/agentsvc-test"
}

// machinesForTest gives a test server a sandbox runtime of its own: the
// shared test image, and a runtime name and /24 that no other test server on
// this host uses at the same time (claimed with a lock file, released when
// the test ends or the process dies), so that parallel test packages and the
// gvisor tests never share interfaces, iptables chains or addresses. When the
// test ends, every sandbox the server left behind is deleted (sandboxes
// outlive the server by design).
func machinesForTest(t testing.TB, cfg *app.Config) {
	t.Helper()
	shared := TestDataDir()
	cfg.MachinesImageDir = shared
	locks := filepath.Join(shared, "netlocks")
	if err := os.MkdirAll(locks, 0o700); err != nil {
		t.Fatalf("machines test locks: %v", err)
	}
	slot := -1
	for i := 0; i < 256 && slot < 0; i++ {
		f, err := os.OpenFile(filepath.Join(locks, fmt.Sprintf("%03d.lock", i)), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			t.Fatalf("machines test locks: %v", err)
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			f.Close()
			continue
		}
		slot = i
		t.Cleanup(func() { f.Close() })
	}
	if slot < 0 {
		t.Fatal("machines tests: no free runtime slot (256 test servers at once?)")
	}
	cfg.MachinesRuntimeName = fmt.Sprintf("t%c%c", 'a'+slot/26, 'a'+slot%26)
	cfg.MachinesSubnet = fmt.Sprintf("10.210.%d.0/24", slot)
	dataDir, name, subnet := cfg.DataDir, cfg.MachinesRuntimeName, cfg.MachinesSubnet
	t.Cleanup(func() { removeSandboxes(t, dataDir, name, subnet) })
}

func removeSandboxes(t testing.TB, dataDir, name, subnet string) {
	entries, _ := os.ReadDir(filepath.Join(dataDir, "machines"))
	if len(entries) == 0 {
		return
	}
	rt, err := gvisor.New(gvisor.Options{DataDir: dataDir, Name: name, Subnet: netip.MustParsePrefix(subnet)})
	if err != nil {
		t.Errorf("cleaning up sandboxes: %v", err)
		return
	}
	list, err := rt.List(context.Background())
	if err != nil {
		t.Errorf("cleaning up sandboxes: %v", err)
		return
	}
	for _, sb := range list {
		if err := rt.Delete(context.Background(), sb.ID); err != nil {
			t.Errorf("cleaning up sandbox %s: %v", sb.ID, err)
		}
	}
}
