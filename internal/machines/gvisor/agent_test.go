package gvisor

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
)

// TestAgentInSandbox checks that commands go through the agent in a new
// sandbox, that the agent refuses requests without the token from inside the
// machine, that commands do not see the token, and that the agent comes
// back when a command kills it.
func TestAgentInSandbox(t *testing.T) {
	r, img := newRuntime(t)
	id := createSandbox(t, r, img, machines.Limits{})
	m, err := r.readMeta(id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Agent == "" || m.Agent != agent.InImage(img) || len(m.AgentToken) != 64 {
		t.Fatalf("sandbox agent %q token length %d, image agent %q", m.Agent, len(m.AgentToken), agent.InImage(img))
	}
	if got := mustRun(t, r, id, "cat /proc/$PPID/cmdline | tr '\\0' ' '"); !strings.Contains(got, m.Agent) {
		t.Errorf("the command's parent is %q, not the agent", got)
	}
	port := strconv.Itoa(agent.Port)
	for _, auth := range []string{"", "-H 'Authorization: Bearer wrong-token-wrong-token-wrong-token'"} {
		got := mustRun(t, r, id, "curl -s -o /dev/null -w '%{http_code}' "+auth+
			" -X POST -d '{\"command\":\"touch /root/pwned\"}' http://127.0.0.1:"+port+"/v1/exec")
		if got != "401" {
			t.Errorf("request with %q from inside: status %s, want 401", auth, got)
		}
	}
	if res := run(t, r, id, "test -e /root/pwned"); res.ExitCode == 0 {
		t.Error("an unauthenticated request ran its command")
	}
	if got := mustRun(t, r, id, "env | grep ^AGENTSVC_ || true"); got != "" {
		t.Errorf("commands see %q", got)
	}
	if got := mustRun(t, r, id, "cat /etc/resolv.conf"); got != string(sandboxResolvConf()) {
		t.Errorf("resolv.conf %q, want %q", got, sandboxResolvConf())
	}

	// A command that kills the agent gets no answer of its own, but init
	// restarts the agent and the next command works.
	_, _ = r.Exec(t.Context(), id, machines.ExecRequest{Command: "pkill -f '^" + m.Agent + "'", Timeout: 5 * time.Second})
	if got := mustRun(t, r, id, "echo back"); got != "back\n" {
		t.Errorf("after killing the agent: %q", got)
	}
	if got := mustRun(t, r, id, "cat /proc/$PPID/cmdline | tr '\\0' ' '"); !strings.Contains(got, m.Agent) {
		t.Errorf("after the restart the command's parent is %q, not the agent", got)
	}
}

// TestFIFOFallback runs commands and file operations in a sandbox whose
// agent is unknown to the host, as for sandboxes created from an image
// without the agent: they take the FIFO path through runsc exec.
func TestFIFOFallback(t *testing.T) {
	r, img := newRuntime(t)
	id := createSandbox(t, r, img, machines.Limits{})
	m, err := r.readMeta(id)
	if err != nil {
		t.Fatal(err)
	}
	m.Agent, m.AgentToken = "", ""
	if err := r.writeMeta(m); err != nil {
		t.Fatal(err)
	}
	r.dropAgent(id)
	if got := mustRun(t, r, id, "cat /proc/$PPID/cmdline | tr '\\0' ' '"); !strings.Contains(got, "timeout") {
		t.Errorf("the command's parent is %q, not the FIFO path's timeout", got)
	}
	res, err := r.Exec(t.Context(), id, machines.ExecRequest{Command: "tr a-z A-Z; printf '\\xff' >&2; exit 4", Stdin: []byte("fifo")})
	if err != nil || res.ExitCode != 4 || string(res.Stdout) != "FIFO" || string(res.Stderr) != "\xff" {
		t.Errorf("exec: %+v %v", res, err)
	}
	res, err = r.Exec(t.Context(), id, machines.ExecRequest{Command: "sleep 30", Timeout: 500 * time.Millisecond})
	if err != nil || !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("timeout: %+v %v", res, err)
	}
	if err := r.WriteFile(t.Context(), id, "/root/x/y", []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := r.ReadFile(t.Context(), id, "/root/x/y", 100); err != nil || string(got) != "data" {
		t.Errorf("read back %q %v", got, err)
	}
	mustRun(t, r, id, "ln -s /proc/self /root/p")
	if _, err := r.ReadFile(t.Context(), id, "/root/p/environ", 100); !errors.Is(err, machines.ErrBadPath) {
		t.Errorf("symlink into /proc: %v", err)
	}
}

// TestAgentFiles checks the file errors through the agent inside a sandbox.
func TestAgentFiles(t *testing.T) {
	r, img := newRuntime(t)
	id := createSandbox(t, r, img, machines.Limits{})
	mustRun(t, r, id, "mkdir -p /root/d && ln -s /proc/self /root/p && ln -s /sys /root/s && head -c 100 /dev/zero > /root/big")
	for _, tc := range []struct {
		name  string
		write bool
		path  string
		want  error
	}{
		{"missing", false, "/root/nope", machines.ErrFileNotFound},
		{"directory", false, "/root/d", machines.ErrBadPath},
		{"too large", false, "/root/big", machines.ErrFileTooLarge},
		{"symlink into proc", false, "/root/p/environ", machines.ErrBadPath},
		{"write through a symlink into sys", true, "/root/s/x", machines.ErrBadPath},
		{"write a directory", true, "/root/d", machines.ErrBadPath},
		{"write dev", true, "/dev/x", machines.ErrBadPath},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.write {
				err = r.WriteFile(t.Context(), id, tc.path, []byte("x"), 0o600)
			} else {
				_, err = r.ReadFile(t.Context(), id, tc.path, 50)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// TestNetworkSetup checks what setup leaves behind without a sandbox: the
// peer inside the namespace as eth0 with its address and route, IPv6 off on
// both ends, and teardown removing everything.
func TestNetworkSetup(t *testing.T) {
	testImage(t) // root and runsc
	n := network{name: testName, subnet: testSubnet}
	const slot = 200 // far from the slots other tests of this process allocate
	a, err := addrsFor(testSubnet, slot)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.setup(t.Context(), slot); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.teardown(context.Background(), slot) })
	inNS := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("ip", append([]string{"netns", "exec", n.netnsName(slot)}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
		return string(out)
	}
	for _, k := range []string{"all", "default", "eth0"} {
		if got := strings.TrimSpace(inNS("cat", "/proc/sys/net/ipv6/conf/"+k+"/disable_ipv6")); got != "1" {
			t.Errorf("namespace %s disable_ipv6 = %s", k, got)
		}
	}
	if got, _ := os.ReadFile("/proc/sys/net/ipv6/conf/" + n.hostIf(slot) + "/disable_ipv6"); strings.TrimSpace(string(got)) != "1" {
		t.Errorf("host end disable_ipv6 = %q", got)
	}
	if out := inNS("ip", "addr", "show", "eth0"); !strings.Contains(out, a.sandbox.String()+"/30") || !strings.Contains(out, "UP") {
		t.Errorf("eth0: %s", out)
	}
	if out := inNS("ip", "route"); !strings.Contains(out, "default via "+a.host.String()) {
		t.Errorf("routes: %s", out)
	}
	n.teardown(t.Context(), slot)
	if exists("/sys/class/net/"+n.hostIf(slot)) || exists(n.netnsPath(slot)) {
		t.Error("teardown left the interface or the namespace")
	}
}
