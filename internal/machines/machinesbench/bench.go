// Package machinesbench measures the machines feature as an agent sees it
// (through the REST API of an in-process server, real gVisor sandboxes)
// beside bare runsc commands measured in the same run, and prints medians
// and 95th percentiles. It is a figure printer, not a test: the numbers
// depend on the host and its load. cmd/agentsvc-bench runs it.
package machinesbench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	specs "github.com/opencontainers/runtime-spec/specs-go"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
	"github.com/agentsvc/agentsvc/internal/machines/gvisor"
	"github.com/agentsvc/agentsvc/internal/machines/image"
)

// The benchmark's runtime name and subnet keep its sandboxes apart from a
// service and from tests running on the same host.
const (
	runtimeName = "bnch"
	subnet      = "10.209.0.0/24"
)

// imageRoot finds a directory holding a built base image: the environment's
// AGENTSVC_MACHINES_IMAGE_DIR, ./data, or the tests' shared directory.
func imageRoot() (string, error) {
	var dirs []string
	if d := os.Getenv("AGENTSVC_MACHINES_IMAGE_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, "data", "/var/tmp/agentsvc-test")
	for _, d := range dirs {
		if _, ok := image.Ready(d, "bookworm", image.Base); ok {
			return filepath.Abs(d)
		}
	}
	return "", fmt.Errorf("no machine image in %v: run make machines-setup (or set AGENTSVC_MACHINES_IMAGE_DIR)", dirs)
}

// Run measures n rounds and writes the figures to w.
func Run(w io.Writer, n int) error {
	if n < 1 {
		return errors.New("machinesbench: n must be at least 1")
	}
	runsc, err := exec.LookPath("runsc")
	if err != nil {
		return fmt.Errorf("machinesbench: runsc not installed (make machines-setup): %w", err)
	}
	root, err := imageRoot()
	if err != nil {
		return err
	}
	// Machines run their commands through the in-sandbox agent when the
	// image has it (scripts/ensure-image.sh installs it); make sure it does,
	// so the figures are those of the service as set up by the README.
	if img, ok := image.Ready(root, "bookworm", image.Base); ok && agent.InImage(img) == "" {
		if err := agent.EnsureInstalled(context.Background(), img); err != nil {
			return fmt.Errorf("machinesbench: %w", err)
		}
	}
	dataDir, err := os.MkdirTemp("", "agentsvc-machinesbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dataDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	cfg := app.Config{Dev: true, DataDir: dataDir, HTTPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", DevPlan: "paid",
		LogLevel: "error", LogFormat: "text", MaxBodyBytes: 1 << 20, ShutdownTimeout: 10 * time.Second,
		MachinesImageDir: root, MachinesSuite: "bookworm", MachinesRuntimeName: runtimeName, MachinesSubnet: subnet, Runsc: runsc}
	a, err := app.New(ctx, cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})), "bench")
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		removeSandboxes(dataDir)
		// runsc may still leave its namespace bind mount under --root.
		_ = syscall.Unmount(filepath.Join(dataDir, "bare-runsc", "null-netns"), syscall.MNT_DETACH)
	}()

	c := &client{base: a.BaseURL(), http: &http.Client{Timeout: 2 * time.Minute}}
	if err := c.newAgent(a.DevCredentials.OrgKey); err != nil {
		return err
	}
	img, _ := image.Ready(root, "bookworm", image.Base)
	bare := &bareRunsc{runsc: runsc, root: filepath.Join(dataDir, "bare-runsc"), dir: filepath.Join(dataDir, "bare"), image: img}

	var create, command, stop, resume, fork, bRun, bExec, bCkpt, bRestore []time.Duration
	fmt.Fprintf(w, "machines benchmark: %d rounds (REST API of an in-process server, SQLite, gVisor systrap)\n", n)
	for i := range n {
		t := time.Now()
		id, err := c.create(`{"ttl_seconds":600}`)
		if err != nil {
			return err
		}
		if err := c.run(id); err != nil {
			return err
		}
		create = append(create, time.Since(t))

		t = time.Now()
		if err := c.run(id); err != nil {
			return err
		}
		command = append(command, time.Since(t))

		t = time.Now()
		if err := c.post("/api/v1/machines/"+id+"/stop", ""); err != nil {
			return err
		}
		stop = append(stop, time.Since(t))

		t = time.Now()
		if err := c.post("/api/v1/machines/"+id+"/resume", ""); err != nil {
			return err
		}
		if err := c.run(id); err != nil {
			return err
		}
		resume = append(resume, time.Since(t))

		t = time.Now()
		fid, err := c.create(`{"fork_from":"` + id + `"}`)
		if err != nil {
			return err
		}
		if err := c.run(fid); err != nil {
			return err
		}
		fork = append(fork, time.Since(t))
		for _, m := range []string{fid, id} {
			if err := c.do("DELETE", "/api/v1/machines/"+m+"?confirm=true", "", nil); err != nil {
				return err
			}
		}

		r, e, ck, rs, err := bare.round(ctx, fmt.Sprintf("bare-%d", i))
		if err != nil {
			return err
		}
		bRun, bExec, bCkpt, bRestore = append(bRun, r), append(bExec, e), append(bCkpt, ck), append(bRestore, rs)
	}
	fmt.Fprintf(w, "%-44s %9s %9s\n", "operation", "p50", "p95")
	for _, row := range []struct {
		name string
		d    []time.Duration
	}{
		{"create -> first command result", create},
		{"command round trip (run: true)", command},
		{"stop (checkpoint, release)", stop},
		{"resume -> first command result", resume},
		{"fork of a running machine -> first result", fork},
		{"bare runsc run --detach (sleep)", bRun},
		{"bare runsc exec /bin/true", bExec},
		{"bare runsc checkpoint", bCkpt},
		{"bare runsc restore --detach", bRestore},
	} {
		p50, p95 := percentiles(row.d)
		fmt.Fprintf(w, "%-44s %9s %9s\n", row.name, p50.Round(time.Millisecond/10), p95.Round(time.Millisecond/10))
	}
	return nil
}

// percentiles returns the median and the 95th percentile (nearest rank).
func percentiles(d []time.Duration) (time.Duration, time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return rank(0.5), rank(0.95)
}

type client struct {
	base, token string
	http        *http.Client
}

func (c *client) do(method, path, body string, out any) error {
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

func (c *client) post(path, body string) error { return c.do("POST", path, body, nil) }

func (c *client) newAgent(orgKey string) error {
	c.token = orgKey
	var created struct {
		Agent struct{ ID string }
	}
	if err := c.do("POST", "/api/v1/inboxes", `{"username":"bench"}`, &created); err != nil {
		return err
	}
	var tok struct{ Token string }
	if err := c.do("POST", "/api/v1/agents/"+created.Agent.ID+"/tokens", `{"name":"bench","capabilities":["compute:read","compute:run","compute:admin"]}`, &tok); err != nil {
		return err
	}
	c.token = tok.Token
	return nil
}

func (c *client) create(body string) (string, error) {
	var m struct{ ID string }
	err := c.do("POST", "/api/v1/machines", body, &m)
	return m.ID, err
}

func (c *client) run(id string) error {
	var res struct {
		ExitCode int `json:"exit_code"`
	}
	if err := c.do("POST", "/api/v1/machines/"+id+"/run", `{"command":"true"}`, &res); err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("run true on %s: exit %d", id, res.ExitCode)
	}
	return nil
}

// bareRunsc runs runsc directly on a minimal bundle over the same image
// (sleep as PID 1, no network, the same overlay kind), for comparison.
type bareRunsc struct {
	runsc, root, dir, image string
}

func (b *bareRunsc) cmd(ctx context.Context, args ...string) error {
	// A fresh network namespace per gofer, as the service's runtime does:
	// the default is a bind mount under --root that outlives the sandbox.
	full := append([]string{"--root", b.root, "--network", "none", "--ignore-cgroups", "--gofer-network-namespace", "new"}, args...)
	// Output goes to a file, not a pipe: a detached sandbox inherits the
	// descriptors and would hold a pipe open forever.
	log, err := os.CreateTemp(b.dir, "runsc-*.log")
	if err != nil {
		return err
	}
	defer os.Remove(log.Name())
	defer log.Close()
	cmd := exec.CommandContext(ctx, b.runsc, full...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		out, _ := os.ReadFile(log.Name())
		return fmt.Errorf("runsc %v: %w: %s", args, err, out)
	}
	return nil
}

func (b *bareRunsc) round(ctx context.Context, id string) (run, execD, ckpt, restore time.Duration, err error) {
	bundle := filepath.Join(b.dir, id)
	overlay := filepath.Join(bundle, "overlay")
	if err = os.MkdirAll(overlay, 0o700); err != nil {
		return
	}
	defer func() {
		_ = exec.Command(b.runsc, "--root", b.root, "delete", "--force", id).Run()
		_ = os.RemoveAll(bundle)
	}()
	spec := specs.Spec{
		Version:  specs.Version,
		Hostname: id,
		Process:  &specs.Process{Args: []string{"/bin/sleep", "infinity"}, Cwd: "/", Env: []string{"PATH=/usr/bin:/bin"}},
		Root:     &specs.Root{Path: b.image},
		Mounts:   []specs.Mount{{Destination: "/proc", Type: "proc", Source: "proc"}},
		Linux: &specs.Linux{Namespaces: []specs.LinuxNamespace{{Type: specs.PIDNamespace}, {Type: specs.IPCNamespace},
			{Type: specs.UTSNamespace}, {Type: specs.MountNamespace}, {Type: specs.NetworkNamespace}}},
	}
	raw, _ := json.Marshal(spec)
	if err = os.WriteFile(filepath.Join(bundle, "config.json"), raw, 0o600); err != nil {
		return
	}
	ov := []string{"--overlay2", "root:dir=" + overlay}
	t := time.Now()
	if err = b.cmd(ctx, append(ov, "run", "--detach", "--bundle", bundle, id)...); err != nil {
		return
	}
	run = time.Since(t)
	t = time.Now()
	if err = b.cmd(ctx, "exec", id, "/bin/true"); err != nil {
		return
	}
	execD = time.Since(t)
	snap := filepath.Join(bundle, "snap")
	t = time.Now()
	if err = b.cmd(ctx, "checkpoint", "--image-path", snap, id); err != nil {
		return
	}
	ckpt = time.Since(t)
	_ = exec.Command(b.runsc, "--root", b.root, "delete", "--force", id).Run()
	t = time.Now()
	if err = b.cmd(ctx, append(ov, "restore", "--detach", "--image-path", snap, "--bundle", bundle, id)...); err != nil {
		return
	}
	restore = time.Since(t)
	return
}

// removeSandboxes deletes whatever sandboxes a failed run left behind.
func removeSandboxes(dataDir string) {
	rt, err := gvisor.New(gvisor.Options{DataDir: dataDir, Name: runtimeName, Subnet: netip.MustParsePrefix(subnet)})
	if err != nil {
		return
	}
	list, _ := rt.List(context.Background())
	for _, sb := range list {
		_ = rt.Delete(context.Background(), sb.ID)
	}
}
