// Package gvisor runs machine sandboxes with gVisor's runsc.
//
// Each sandbox is an OCI bundle under DATA_DIR/machines/<id>/bundle whose
// root is the shared base image directory. runsc wraps it in its own overlay
// (--overlay2=root:dir=...): writes go to a filestore file in the machine's
// directory, never to the image, and because the overlay belongs to gVisor's
// kernel, `runsc checkpoint` saves the filesystem changes together with
// memory. Stop is a checkpoint into DATA_DIR/machines/<id>/snapshots/<name>;
// resume and fork are `runsc restore` of such a snapshot, into the same
// sandbox id or a new one, with processes continuing.
//
// State on disk (so a restarted agentsvc finds everything again):
//
//	DATA_DIR/runsc/             runsc --root (container state)
//	DATA_DIR/machines/<id>/     meta.json, bundle/, overlay/, snapshots/, runsc.log
//
// Commands and file operations go to the in-sandbox agent (agentexec.go,
// package agent), with runsc exec and a FIFO to init as the fallback
// (exec.go). Networking is in network.go, the OCI spec in spec.go.
package gvisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	specs "github.com/opencontainers/runtime-spec/specs-go"

	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
	"github.com/agentsvc/agentsvc/internal/machines/image"
)

// Options configure a Runtime.
type Options struct {
	// DataDir is agentsvc's data directory.
	DataDir string
	// Runsc is the runsc binary; empty means "runsc" on PATH.
	Runsc string
	// Platform is gVisor's platform: "systrap" (default, works everywhere)
	// or "kvm" where /dev/kvm is usable.
	Platform string
	// Subnet holds the sandboxes' /30 networks; default 10.200.0.0/16.
	Subnet netip.Prefix
	// Name tells this runtime's host objects (interfaces, namespaces,
	// iptables chains, cgroups) apart from another's on the same host: 1 to
	// 5 lowercase letters, default "agv". Tests use their own.
	Name string
	// NoOutbound blocks all traffic from sandboxes to the outside (by default
	// it is NATed out, except to private and link-local destinations).
	NoOutbound bool
	// Logger receives operational messages; nil discards them.
	Logger *slog.Logger
}

// Runtime implements machines.Runtime with runsc. Create it with New.
type Runtime struct {
	opts   Options
	net    network
	runsc  string
	root   string // runsc --root
	mdir   string // DATA_DIR/machines
	log    *slog.Logger
	mu     sync.Mutex               // guards slots, busy and network setup
	slots  map[int]string           // network slot -> sandbox id
	busy   map[string]*sync.Mutex   // per-sandbox lifecycle lock
	agents map[string]*agent.Client // per-sandbox agent clients, guarded by mu
	fwOnce sync.Once
	fwErr  error
	// watch holds the requests waiting on a sandbox (agentexec.go).
	watch sandboxWatch
}

var _ machines.Runtime = (*Runtime)(nil)

// meta is a sandbox's persistent description (meta.json).
type meta struct {
	ID        string          `json:"id"`
	Image     string          `json:"image"`
	Limits    machines.Limits `json:"limits"`
	Env       []string        `json:"env,omitempty"`
	Slot      int             `json:"slot"`
	Running   bool            `json:"running"` // wanted state: true between Create/Restore and Checkpoint
	Snapshots []string        `json:"snapshots,omitempty"`
	Created   time.Time       `json:"created"`
	// Agent is the agent binary's path inside the sandbox, empty when the
	// image had none at create (commands then go through the FIFO).
	// AgentToken authenticates the host to it. A fork inherits both: its
	// memory holds the source's agent.
	Agent      string `json:"agent,omitempty"`
	AgentToken string `json:"agent_token,omitempty"`
}

// New returns a Runtime for opts. It succeeds even when runsc is missing, so
// the rest of the service works; sandbox operations then fail with
// machines.ErrUnavailable.
func New(opts Options) (*Runtime, error) {
	if opts.DataDir == "" {
		return nil, errors.New("gvisor: DataDir is required")
	}
	if !opts.Subnet.IsValid() {
		opts.Subnet = netip.MustParsePrefix("10.200.0.0/16")
	}
	if !opts.Subnet.Addr().Is4() || opts.Subnet.Bits() > 28 {
		return nil, fmt.Errorf("gvisor: subnet %s must be IPv4 and at least a /28", opts.Subnet)
	}
	if opts.Name == "" {
		opts.Name = "agv"
	}
	if !regexp.MustCompile(`^[a-z]{1,5}$`).MatchString(opts.Name) {
		return nil, fmt.Errorf("gvisor: name %q must be 1 to 5 lowercase letters", opts.Name)
	}
	if opts.Platform == "" {
		opts.Platform = "systrap"
	}
	if opts.Runsc == "" {
		opts.Runsc = "runsc"
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Runtime{
		opts:   opts,
		net:    network{name: opts.Name, subnet: opts.Subnet},
		root:   filepath.Join(opts.DataDir, "runsc"),
		mdir:   filepath.Join(opts.DataDir, "machines"),
		log:    log,
		slots:  map[int]string{},
		busy:   map[string]*sync.Mutex{},
		agents: map[string]*agent.Client{},
	}
	for _, d := range []string{r.root, r.mdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("gvisor: %w", err)
		}
	}
	// Reserve the network slots of existing sandboxes, running or stopped:
	// a stopped sandbox resumes with its address.
	metas, err := r.readAll()
	if err != nil {
		return nil, err
	}
	for _, m := range metas {
		r.slots[m.Slot] = m.ID
	}
	return r, nil
}

// available checks that sandboxes can run at all on this host.
func (r *Runtime) available(imageDir string) error {
	bin, err := exec.LookPath(r.opts.Runsc)
	if err != nil {
		return fmt.Errorf("%w: runsc not found (run scripts/ensure-runsc.sh): %v", machines.ErrUnavailable, err)
	}
	r.runsc = bin
	if imageDir != "" {
		if _, err := os.Stat(filepath.Join(imageDir, image.MarkerFile)); err != nil {
			return fmt.Errorf("%w: base image %s not built (run scripts/ensure-image.sh DATA_DIR)", machines.ErrUnavailable, imageDir)
		}
	}
	r.fwOnce.Do(func() { r.fwErr = r.net.setupFirewall(context.Background(), !r.opts.NoOutbound) })
	if r.fwErr != nil {
		return fmt.Errorf("%w: %v", machines.ErrUnavailable, r.fwErr)
	}
	return nil
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,47}$`)

func (r *Runtime) dir(id string) string    { return filepath.Join(r.mdir, id) }
func (r *Runtime) bundle(id string) string { return filepath.Join(r.dir(id), "bundle") }
func (r *Runtime) snapDir(id, s string) string {
	return filepath.Join(r.dir(id), "snapshots", s)
}

// lock serializes lifecycle operations on one sandbox (not Exec, which may run
// concurrently with anything).
func (r *Runtime) lock(id string) func() {
	r.mu.Lock()
	l, ok := r.busy[id]
	if !ok {
		l = &sync.Mutex{}
		r.busy[id] = l
	}
	r.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func (r *Runtime) readMeta(id string) (*meta, error) {
	if !idPattern.MatchString(id) {
		return nil, fmt.Errorf("%w: %q", machines.ErrNotFound, id)
	}
	data, err := os.ReadFile(filepath.Join(r.dir(id), "meta.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", machines.ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("gvisor: %w", err)
	}
	var m meta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("gvisor: %s/meta.json: %w", id, err)
	}
	return &m, nil
}

func (r *Runtime) writeMeta(m *meta) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	return writeFileAtomic(filepath.Join(r.dir(m.ID), "meta.json"), data, 0o600)
}

func (r *Runtime) readAll() ([]*meta, error) {
	entries, err := os.ReadDir(r.mdir)
	if err != nil {
		return nil, fmt.Errorf("gvisor: %w", err)
	}
	var out []*meta
	for _, e := range entries {
		if !e.IsDir() || !idPattern.MatchString(e.Name()) {
			continue
		}
		m, err := r.readMeta(e.Name())
		if errors.Is(err, machines.ErrNotFound) {
			continue // a Create that died before writing meta; Delete cleans it
		}
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// allocSlot reserves the lowest free network slot for id.
func (r *Runtime) allocSlot(id string) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	limit := min(1<<(32-r.opts.Subnet.Bits())/4, maxSlotsLimit)
	for s := 0; s < limit; s++ {
		if _, used := r.slots[s]; !used {
			r.slots[s] = id
			return s, nil
		}
	}
	return 0, fmt.Errorf("gvisor: no free address in %s", r.opts.Subnet)
}

func (r *Runtime) freeSlot(slot int, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.slots[slot] == id {
		delete(r.slots, slot)
	}
}

// globalFlags are runsc's flags for starting or restoring sandbox id. They
// are the same for both so a restored sandbox behaves like the original.
func (r *Runtime) globalFlags(id string) []string {
	return []string{
		"--root", r.root,
		"--platform", r.opts.Platform,
		"--network", "sandbox",
		"--overlay2", "root:dir=" + filepath.Join(r.dir(id), "overlay"),
		// The hybrid cgroup v1 layout is handled by runsc's cgroupfs code.
		"--cgroupfs",
		// A fresh empty network namespace per gofer instead of the default
		// one bind-mounted under --root, which outlives every sandbox.
		"--gofer-network-namespace", "new",
	}
}

// runsc runs a runsc subcommand that does not talk to the sandbox's stdio;
// its output goes to the machine's runsc.log (a file, not a pipe, since a
// detached sandbox keeps the descriptors it inherits) and the last lines come
// back in the error.
func (r *Runtime) runRunsc(ctx context.Context, id string, args ...string) error {
	logPath := filepath.Join(r.dir(id), "runsc.log")
	lf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	defer lf.Close()
	start, _ := lf.Seek(0, 2)
	cmd := exec.CommandContext(ctx, r.runsc, args...)
	cmd.Stdout, cmd.Stderr = lf, lf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("gvisor: runsc %s: %w: %s", subcommand(args), err, tailOf(logPath, start))
	}
	return nil
}

// subcommand finds the runsc subcommand in args, for error messages.
func subcommand(args []string) string {
	for _, a := range args {
		switch a {
		case "run", "restore", "checkpoint", "delete", "kill", "exec", "list", "state":
			return a
		}
	}
	return strings.Join(args, " ")
}

func tailOf(path string, from int64) string {
	data, err := os.ReadFile(path)
	if err != nil || int64(len(data)) < from {
		return ""
	}
	s := strings.TrimSpace(string(data[from:]))
	if len(s) > 2000 {
		s = s[len(s)-2000:]
	}
	return s
}

// Create implements machines.Runtime.
func (r *Runtime) Create(ctx context.Context, spec machines.SandboxSpec) error {
	if !idPattern.MatchString(spec.ID) {
		return fmt.Errorf("gvisor: invalid sandbox id %q", spec.ID)
	}
	if err := r.available(spec.Image); err != nil {
		return err
	}
	unlock := r.lock(spec.ID)
	defer unlock()
	if err := os.Mkdir(r.dir(spec.ID), 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", machines.ErrExists, spec.ID)
		}
		return fmt.Errorf("gvisor: %w", err)
	}
	m := &meta{ID: spec.ID, Image: spec.Image, Limits: spec.Limits, Env: spec.Env, Created: time.Now().UTC(), Slot: -1}
	if p := agent.InImage(spec.Image); p != "" {
		m.Agent, m.AgentToken = p, newToken()
	}
	slot, err := r.allocSlot(spec.ID)
	if err != nil {
		_ = os.RemoveAll(r.dir(spec.ID))
		return err
	}
	m.Slot = slot
	if err := r.start(ctx, m, "", nil); err != nil {
		r.cleanup(context.WithoutCancel(ctx), m)
		return err
	}
	// init wrote resolv.conf already. Without files to write, Create
	// returns while the agent boots; the first command waits for it.
	if len(spec.Files) == 0 {
		r.watchAgent(m)
		return nil
	}
	r.waitAgent(ctx, m)
	if err := r.writeFiles(ctx, spec.ID, nil, spec.Files); err != nil {
		r.cleanup(context.WithoutCancel(ctx), m)
		return err
	}
	return nil
}

// writeFiles puts resolv (unless nil) and the spec's files in place.
func (r *Runtime) writeFiles(ctx context.Context, id string, resolv []byte, files map[string][]byte) error {
	if resolv != nil {
		if err := r.WriteFile(ctx, id, "/etc/resolv.conf", resolv, 0o644); err != nil {
			return err
		}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := r.WriteFile(ctx, id, p, files[p], 0o600); err != nil {
			return err
		}
	}
	return nil
}

// start runs the sandbox of m, whose network slot is reserved: from scratch
// when snapshot is empty, else by restoring snapshot (a directory) with base,
// the spec the snapshot was taken with. It records m as running.
func (r *Runtime) start(ctx context.Context, m *meta, snapshot string, base *specs.Spec) error {
	for _, d := range []string{r.bundle(m.ID), filepath.Join(r.dir(m.ID), "overlay")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("gvisor: %w", err)
		}
	}
	cgroupParent := "/agentsvc-" + r.opts.Name
	var spec = base
	if spec == nil {
		initEnv := []string{resolvEnv + "=" + string(sandboxResolvConf())}
		if m.Agent != "" {
			initEnv = append(initEnv, agentPathEnv+"="+m.Agent, agent.TokenEnv+"="+m.AgentToken)
		}
		spec = bundleSpec(r.net.netnsPath(m.Slot), cgroupParent, m.Image, m.ID, m.Env, initEnv, m.Limits)
	} else {
		adaptSpec(spec, r.net.netnsPath(m.Slot), cgroupParent, m.Image, m.ID, m.Limits)
	}
	if err := writeBundle(r.bundle(m.ID), spec); err != nil {
		return err
	}
	// Record the slot before touching the host, so Delete after a crash
	// knows which namespace to remove.
	m.Running = true
	if err := r.writeMeta(m); err != nil {
		return err
	}
	if err := r.net.setup(ctx, m.Slot); err != nil {
		return err
	}
	// Connections to the agent of an earlier run are dead.
	r.dropAgent(m.ID)
	// A container left in runsc's state (crash, reboot) blocks the id.
	if r.inRunscState(m.ID) {
		r.forceDelete(ctx, m.ID)
	}
	args := r.globalFlags(m.ID)
	if snapshot == "" {
		args = append(args, "run", "--detach", "--bundle", r.bundle(m.ID), m.ID)
	} else {
		args = append(args, "restore", "--detach", "--image-path", snapshot, "--bundle", r.bundle(m.ID), m.ID)
	}
	if err := r.runRunsc(ctx, m.ID, args...); err != nil {
		r.forceDelete(context.WithoutCancel(ctx), m.ID)
		r.net.teardown(context.WithoutCancel(ctx), m.Slot)
		return err
	}
	return nil
}

// inRunscState reports whether runsc's --root may hold state of sandbox id
// (files named <id>_sandbox:<id>.state/.lock), so that the common case needs
// no runsc process to clean up.
func (r *Runtime) inRunscState(id string) bool {
	matches, err := filepath.Glob(filepath.Join(r.root, "*"+id+"*"))
	return err != nil || len(matches) > 0
}

// forceDelete removes sandbox id from runsc's state, killing it if needed.
func (r *Runtime) forceDelete(ctx context.Context, id string) {
	cmd := exec.CommandContext(ctx, r.runsc, "--root", r.root, "delete", "--force", id)
	_ = cmd.Run()
}

// cleanup undoes a failed Create or Fork.
func (r *Runtime) cleanup(ctx context.Context, m *meta) {
	r.forceDelete(ctx, m.ID)
	if m.Slot >= 0 {
		r.net.teardown(ctx, m.Slot)
		r.freeSlot(m.Slot, m.ID)
	}
	_ = os.RemoveAll(r.dir(m.ID))
}

// Checkpoint implements machines.Runtime.
func (r *Runtime) Checkpoint(ctx context.Context, id string) (string, error) {
	return r.checkpoint(ctx, id, false)
}

// Snapshot implements machines.Runtime with `runsc checkpoint
// --leave-running`: the sandbox pauses while its state is written and then
// continues, with its processes, connections and address.
func (r *Runtime) Snapshot(ctx context.Context, id string) (string, error) {
	return r.checkpoint(ctx, id, true)
}

func (r *Runtime) checkpoint(ctx context.Context, id string, leaveRunning bool) (string, error) {
	if err := r.available(""); err != nil {
		return "", err
	}
	unlock := r.lock(id)
	defer unlock()
	m, err := r.readMeta(id)
	if err != nil {
		return "", err
	}
	if !m.Running {
		return "", fmt.Errorf("%w: %s", machines.ErrNotRunning, id)
	}
	// Close the host's idle connections to the agent first, so the
	// snapshot does not hold half of a connection the host forgot.
	r.dropAgent(id)
	name := time.Now().UTC().Format("20060102T150405.000000000Z")
	dir := r.snapDir(id, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("gvisor: %w", err)
	}
	args := []string{"--root", r.root, "checkpoint", "--image-path", dir}
	if leaveRunning {
		args = append(args, "--leave-running")
	}
	if err := r.runRunsc(ctx, id, append(args, id)...); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	if leaveRunning {
		m.Snapshots = append(m.Snapshots, name)
		if err := r.writeMeta(m); err != nil {
			return "", err
		}
		return name, nil
	}
	// The snapshot is complete: from here on the sandbox is stopped even if
	// the cleanup below fails half-way.
	m.Running = false
	m.Snapshots = append(m.Snapshots, name)
	if err := r.writeMeta(m); err != nil {
		return "", err
	}
	// Releasing the sandbox and its network are independent host
	// processes; run them side by side.
	var wg sync.WaitGroup
	wg.Go(func() { r.forceDelete(context.WithoutCancel(ctx), id) })
	r.net.teardown(context.WithoutCancel(ctx), m.Slot)
	wg.Wait()
	// The overlay filestore of the old sandbox is in the snapshot now; a
	// restore creates a fresh one.
	_ = os.RemoveAll(filepath.Join(r.dir(id), "overlay"))
	return name, nil
}

// Restore implements machines.Runtime.
func (r *Runtime) Restore(ctx context.Context, id, snapshot string) error {
	if err := r.available(""); err != nil {
		return err
	}
	unlock := r.lock(id)
	defer unlock()
	m, err := r.readMeta(id)
	if err != nil {
		return err
	}
	if m.Running {
		// A sandbox that should run but whose process is gone (host
		// reboot) may be restored; a live one may not.
		if st, _ := r.runscStates(ctx); st[id] == "running" {
			return fmt.Errorf("%w: %s", machines.ErrRunning, id)
		}
	}
	if !slices.Contains(m.Snapshots, snapshot) {
		return fmt.Errorf("%w: snapshot %q of %s", machines.ErrNotFound, snapshot, id)
	}
	base, err := readBundle(r.bundle(id))
	if err != nil {
		return err
	}
	r.claimSlot(m)
	if err := r.start(ctx, m, r.snapDir(id, snapshot), base); err != nil {
		m.Running = false
		_ = r.writeMeta(m)
		return err
	}
	return nil
}

// claimSlot re-registers m's slot (after a runtime restart it is already
// reserved by New).
func (r *Runtime) claimSlot(m *meta) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.slots[m.Slot] = m.ID
}

// Fork implements machines.Runtime.
func (r *Runtime) Fork(ctx context.Context, srcID, snapshot string, spec machines.SandboxSpec) error {
	if !idPattern.MatchString(spec.ID) {
		return fmt.Errorf("gvisor: invalid sandbox id %q", spec.ID)
	}
	if err := r.available(""); err != nil {
		return err
	}
	src, err := r.readMeta(srcID)
	if err != nil {
		return err
	}
	if !slices.Contains(src.Snapshots, snapshot) {
		return fmt.Errorf("%w: snapshot %q of %s", machines.ErrNotFound, snapshot, srcID)
	}
	unlock := r.lock(spec.ID)
	defer unlock()
	if err := os.Mkdir(r.dir(spec.ID), 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", machines.ErrExists, spec.ID)
		}
		return fmt.Errorf("gvisor: %w", err)
	}
	// The fork must boot from the same image and spec as the snapshot;
	// limits may differ (runsc allows resources to change on restore).
	lim := src.Limits
	if spec.Limits != (machines.Limits{}) {
		lim = spec.Limits
	}
	m := &meta{ID: spec.ID, Image: src.Image, Limits: lim, Env: src.Env, Created: time.Now().UTC(), Slot: -1,
		Agent: src.Agent, AgentToken: src.AgentToken}
	slot, err := r.allocSlot(spec.ID)
	if err != nil {
		_ = os.RemoveAll(r.dir(spec.ID))
		return err
	}
	m.Slot = slot
	// Copy the snapshot so the fork owns one: it can be resumed from its
	// origin later and the source may delete its snapshots meanwhile.
	name := snapshot
	if err := copyDir(r.snapDir(srcID, snapshot), r.snapDir(spec.ID, name)); err != nil {
		r.cleanup(context.WithoutCancel(ctx), m)
		return err
	}
	m.Snapshots = []string{name}
	base, err := readBundle(r.bundle(srcID))
	if err != nil {
		r.cleanup(context.WithoutCancel(ctx), m)
		return err
	}
	if err := r.start(ctx, m, r.snapDir(spec.ID, name), base); err != nil {
		r.cleanup(context.WithoutCancel(ctx), m)
		return err
	}
	// The fork's resolv.conf is its source's; the host's resolvers may
	// have changed since.
	if err := r.writeFiles(ctx, spec.ID, sandboxResolvConf(), spec.Files); err != nil {
		r.cleanup(context.WithoutCancel(ctx), m)
		return err
	}
	return nil
}

// Address implements machines.Runtime.
func (r *Runtime) Address(ctx context.Context, id string) (netip.Addr, error) {
	m, err := r.readMeta(id)
	if err != nil {
		return netip.Addr{}, err
	}
	if !m.Running {
		return netip.Addr{}, fmt.Errorf("%w: %s", machines.ErrNotRunning, id)
	}
	a, err := addrsFor(r.opts.Subnet, m.Slot)
	if err != nil {
		return netip.Addr{}, err
	}
	return a.sandbox, nil
}

// Delete implements machines.Runtime.
func (r *Runtime) Delete(ctx context.Context, id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("%w: %q", machines.ErrNotFound, id)
	}
	unlock := r.lock(id)
	defer unlock()
	m, err := r.readMeta(id)
	if errors.Is(err, machines.ErrNotFound) {
		// A directory without meta is the remains of a crashed Create.
		if _, serr := os.Stat(r.dir(id)); serr != nil {
			return err
		}
		m = &meta{ID: id, Slot: -1}
	} else if err != nil {
		return err
	}
	if r.runsc == "" {
		if bin, lerr := exec.LookPath(r.opts.Runsc); lerr == nil {
			r.runsc = bin
		}
	}
	r.dropAgent(id)
	if r.runsc != "" {
		r.forceDelete(ctx, id)
	}
	if m.Slot >= 0 {
		r.net.teardown(ctx, m.Slot)
		r.freeSlot(m.Slot, id)
	}
	if err := os.RemoveAll(r.dir(id)); err != nil {
		return fmt.Errorf("gvisor: removing %s: %w", id, err)
	}
	r.mu.Lock()
	delete(r.busy, id)
	r.mu.Unlock()
	return nil
}

// List implements machines.Runtime.
func (r *Runtime) List(ctx context.Context) ([]machines.SandboxState, error) {
	metas, err := r.readAll()
	if err != nil {
		return nil, err
	}
	states, err := r.runscStates(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]machines.SandboxState, 0, len(metas))
	for _, m := range metas {
		s := machines.SandboxState{ID: m.ID, Snapshots: m.Snapshots, Created: m.Created, Status: machines.StatusStopped}
		if m.Running {
			s.Status = machines.StatusBroken
			if states[m.ID] == "running" {
				s.Status = machines.StatusRunning
				if a, err := addrsFor(r.opts.Subnet, m.Slot); err == nil {
					s.Address = a.sandbox
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// runscStates maps container ids to runsc's status ("running", "stopped",
// ...). Without runsc nothing runs.
func (r *Runtime) runscStates(ctx context.Context) (map[string]string, error) {
	bin, err := exec.LookPath(r.opts.Runsc)
	if err != nil {
		return map[string]string{}, nil
	}
	out, err := exec.CommandContext(ctx, bin, "--root", r.root, "list", "--format=json").Output()
	if err != nil {
		return nil, fmt.Errorf("gvisor: runsc list: %w", err)
	}
	var list []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if len(strings.TrimSpace(string(out))) > 0 && strings.TrimSpace(string(out)) != "null" {
		if err := json.Unmarshal(out, &list); err != nil {
			return nil, fmt.Errorf("gvisor: runsc list: %w", err)
		}
	}
	states := make(map[string]string, len(list))
	for _, c := range list {
		states[c.ID] = c.Status
	}
	return states, nil
}

// copyDir copies the regular files of a snapshot directory (flat, as runsc
// writes it). Snapshot files are never modified after runsc wrote them, so a
// hard link is as good as a copy and costs nothing; copying is the fallback
// across file systems.
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("gvisor: reading snapshot: %w", err)
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		if os.Link(from, to) == nil {
			continue
		}
		if err := copyFile(from, to); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("gvisor: copying snapshot: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	return nil
}
