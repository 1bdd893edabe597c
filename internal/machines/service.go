package machines

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

// CredentialSource gives the values of vault credentials to place in a
// machine. The vault implements it; ValueForMachine checks that p may use
// credentialID (404 apierr otherwise), records the read in the audit history
// and returns a file name ([A-Za-z0-9._-], at most 100 characters) and the
// value.
type CredentialSource interface {
	ValueForMachine(ctx context.Context, p *auth.Principal, credentialID, machineID string) (name string, value []byte, err error)
}

// CredentialsDir is where injected credentials are written in a machine.
const CredentialsDir = "/run/agentsvc/credentials"

// Topic is the store notification topic that wakes the machines worker.
const Topic = "machines"

// Options configure a Service.
type Options struct {
	DB      *store.DB
	Runtime Runtime
	// Image returns the base image directory for an image name (base,
	// desktop) and whether it is built.
	Image func(name string) (dir string, ok bool)
	// Credentials gives vault values for inject_credential_ids; nil means
	// the vault is not available (such requests are 503).
	Credentials CredentialSource
	// PortURL is the public URL of a machine's port.
	PortURL func(machineID string, port int) string
	// Host names this server node's sandboxes (default: the host name).
	Host string
	// SetupHint is the command that installs runsc and the image, named in
	// 503 answers.
	SetupHint string
	Logger    *slog.Logger
}

// Service is the machines feature.
type Service struct {
	db    *store.DB
	rt    Runtime
	opts  Options
	log   *slog.Logger
	now   func() time.Time
	descs *desktopSigner
}

// NewService returns the service.
func NewService(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Host == "" {
		opts.Host, _ = os.Hostname()
	}
	if opts.SetupHint == "" {
		opts.SetupHint = "make machines-setup"
	}
	if opts.PortURL == nil {
		opts.PortURL = func(id string, port int) string { return fmt.Sprintf("http://%d-%s.machines.localhost", port, id) }
	}
	s := &Service{db: opts.DB, rt: opts.Runtime, opts: opts, log: opts.Logger, now: time.Now}
	s.descs = &desktopSigner{db: opts.DB}
	return s
}

// Runtime is the sandbox runtime the service drives.
func (s *Service) Runtime() Runtime { return s.rt }

// opLease bounds how long a lifecycle operation may hold a machine before
// another node may take over (a crashed node's lease).
const opLease = 2 * time.Minute

// mapRuntime turns a runtime error into the client's error.
func (s *Service) mapRuntime(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrUnavailable):
		return &apierr.Error{Status: 503, Code: apierr.CodeUnavailable, Message: "machines are not available on this installation",
			Hint: "the operator runs `" + s.opts.SetupHint + "` (scripts/ensure-runsc.sh and scripts/ensure-image.sh DATA_DIR)", Err: err}
	case errors.Is(err, ErrNotRunning):
		return apierr.Conflict(apierr.CodeInvalidState, "the machine is not running").WithHint("resume it first")
	case errors.Is(err, ErrBadPath):
		return apierr.Invalid("path", "must be an absolute path outside /proc, /sys and /dev")
	case errors.Is(err, ErrFileNotFound):
		return apierr.NotFound("file")
	case errors.Is(err, ErrFileTooLarge):
		return apierr.Invalid("path", "the file is larger than %d bytes", MaxFileBytes).WithHint("read it in parts with run, for example head -c or split")
	}
	var e *apierr.Error
	if errors.As(err, &e) {
		return e
	}
	return apierr.Internal(err)
}

func (s *Service) unavailable(what string) error {
	return apierr.Unavailable(what+" is not available on this installation",
		"the operator runs `"+s.opts.SetupHint+"` (scripts/ensure-runsc.sh and scripts/ensure-image.sh DATA_DIR)")
}

// NewMachine is the input of Create.
type NewMachine struct {
	Name                string
	Size                string
	Image               string
	TTLSeconds          int64
	InjectCredentialIDs []string
	// ForkFrom makes the machine a fork of another machine of the agent.
	ForkFrom string
}

var namePattern = regexp.MustCompile(`^[\p{L}\p{N} ._:-]*$`)

func (n *NewMachine) validate() error {
	n.Name = strings.TrimSpace(n.Name)
	if len(n.Name) > MaxNameLength || !namePattern.MatchString(n.Name) {
		return apierr.Invalid("name", "must be at most %d letters, digits, spaces and . _ : -", MaxNameLength)
	}
	if n.TTLSeconds == 0 {
		n.TTLSeconds = DefaultTTLSeconds
	}
	if n.TTLSeconds < 1 || n.TTLSeconds > MaxTTLSeconds {
		return apierr.Invalid("ttl_seconds", "must be between 1 and %d", MaxTTLSeconds)
	}
	if n.Size != "" {
		if _, ok := Sizes[n.Size]; !ok {
			return apierr.Invalid("size", "must be small, medium or large")
		}
	}
	if n.Image != "" && n.Image != ImageBase && n.Image != ImageDesktop {
		return apierr.Invalid("image", "must be base or desktop")
	}
	if n.ForkFrom != "" {
		if !ids.Valid("mch", n.ForkFrom) {
			return apierr.NotFound("fork_from machine")
		}
		if n.Image != "" {
			return apierr.Invalid("image", "a fork boots from its source's image; leave image out with fork_from")
		}
	}
	if len(n.InjectCredentialIDs) > MaxInjected {
		return apierr.Invalid("inject_credential_ids", "at most %d credentials", MaxInjected)
	}
	return nil
}

func agentOnly(p *auth.Principal) error {
	if p == nil || p.Kind != auth.KindAgent {
		return apierr.Forbidden("machines belong to agents", "call with an agent token")
	}
	return nil
}

// checkQuota refuses with 402 when the organization's machine time is used up.
func checkQuota(ctx context.Context, q store.Querier, orgID string, now time.Time) error {
	o, err := org.GetOrganization(ctx, q, orgID)
	if err != nil {
		return err
	}
	plan := org.Plans[o.Plan]
	used, err := usedThisMonth(ctx, q, orgID, now)
	if err != nil {
		return err
	}
	if used >= plan.MachineSecondsPerMonth {
		return apierr.QuotaExceeded("machine_time", "the %s plan allows %d machine seconds per month and %d are used",
			plan.Name, plan.MachineSecondsPerMonth, used).WithHint("wait for next month, or move the organization to the paid plan")
	}
	return nil
}

var credNamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)

// Create makes a machine (or a fork, with ForkFrom) and returns it running.
func (s *Service) Create(ctx context.Context, p *auth.Principal, n NewMachine) (Machine, error) {
	if err := agentOnly(p); err != nil {
		return Machine{}, err
	}
	if err := n.validate(); err != nil {
		return Machine{}, err
	}
	if len(n.InjectCredentialIDs) > 0 && s.opts.Credentials == nil {
		return Machine{}, apierr.Unavailable("credential injection is not available: the vault is not enabled on this installation",
			"create the machine without inject_credential_ids")
	}
	now := s.now()
	id := ids.New("mch")
	m := Machine{ID: id, Name: n.Name, State: StateCreating, Size: n.Size, Image: n.Image, TTLSeconds: n.TTLSeconds,
		ForkedFrom: n.ForkFrom, orgID: p.OrgID, agentID: p.AgentID, sandboxID: sandboxIDFor(id), host: s.opts.Host}
	if m.Name == "" {
		m.Name = "machine-" + id[len(id)-6:]
	}
	var src Machine
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		if n.ForkFrom != "" {
			var err error
			src, err = getMachine(ctx, tx, p.OrgID, p.AgentID, n.ForkFrom)
			if err != nil {
				return apierr.NotFound("fork_from machine")
			}
			if src.State != StateRunning && src.State != StateStopped {
				return apierr.Conflict(apierr.CodeInvalidState, "fork_from: the machine is %s; only running or stopped machines can be forked", src.State)
			}
			if src.State == StateStopped && src.lastSnapshot == "" {
				return apierr.Conflict(apierr.CodeInvalidState, "fork_from: the machine has no snapshot")
			}
			if err := s.claim(ctx, tx, src, "fork", src.State); err != nil {
				return err
			}
			if m.Size == "" {
				m.Size = src.Size
			}
			m.Image = src.Image
		}
		return checkQuota(ctx, tx, p.OrgID, now)
	})
	if err != nil {
		return Machine{}, err
	}
	if m.Size == "" {
		m.Size = DefaultSize
	}
	if m.Image == "" {
		m.Image = ImageBase
	}
	releaseSrc := func() {
		if n.ForkFrom != "" {
			s.release(context.WithoutCancel(ctx), src.ID, "fork")
		}
	}
	imageDir, ok := s.opts.Image(m.Image)
	if !ok {
		releaseSrc()
		hint := "the operator runs `" + s.opts.SetupHint + "` (scripts/ensure-image.sh DATA_DIR)"
		if m.Image == ImageDesktop {
			hint = "the operator runs `agentsvc machines image build --desktop` (or scripts/ensure-image.sh DATA_DIR --desktop)"
		}
		return Machine{}, apierr.Unavailable("the "+m.Image+" machine image is not built on this installation", hint)
	}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO machines (`+machineColumns+`, alive_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, 0, 0, '', $11, '', 'create', $12, $13, $13, 0)`,
			m.ID, m.orgID, m.agentID, m.Name, string(m.State), m.Size, m.Image, m.sandboxID, m.host, m.TTLSeconds,
			m.ForkedFrom, store.Micros(now.Add(opLease)), store.Micros(now))
		if err != nil {
			return fmt.Errorf("insert machine: %w", err)
		}
		details := map[string]any{"name": m.Name, "size": m.Size, "image": m.Image, "ttl_seconds": m.TTLSeconds}
		if m.ForkedFrom != "" {
			details["forked_from"] = m.ForkedFrom
		}
		return audit.Record(ctx, tx, p.OrgID, p, "machine.create", audit.Target{Type: "machine", ID: m.ID}, details)
	})
	if err != nil {
		releaseSrc()
		return Machine{}, err
	}
	fail := func(err error) (Machine, error) {
		releaseSrc()
		// The machine never ran: its row goes, so nothing is billed and a
		// retry with the same idempotency key starts over.
		dctx := context.WithoutCancel(ctx)
		if derr := s.db.InTx(dctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(dctx, `DELETE FROM machines WHERE id = $1`, m.ID)
			return err
		}); derr != nil {
			s.log.Error("could not remove a machine that failed to start", "machine", m.ID, "err", derr)
		}
		return Machine{}, s.mapRuntime(err)
	}
	files := map[string][]byte{}
	var injected []string
	for _, cid := range n.InjectCredentialIDs {
		name, value, err := s.opts.Credentials.ValueForMachine(ctx, p, cid, m.ID)
		if err != nil {
			return fail(err)
		}
		if !credNamePattern.MatchString(name) {
			return fail(fmt.Errorf("credential %s: unusable file name %q", cid, name))
		}
		files[CredentialsDir+"/"+name] = value
		injected = append(injected, cid)
	}
	sz := Sizes[m.Size]
	spec := SandboxSpec{ID: m.sandboxID, Image: imageDir, Limits: Limits{CPUs: sz.CPUs, MemoryBytes: sz.MemoryBytes},
		Env: []string{"AGENTSVC_MACHINE_ID=" + m.ID}, Files: files}
	if n.ForkFrom == "" {
		err = s.rt.Create(ctx, spec)
	} else {
		err = s.forkSandbox(ctx, src, spec)
	}
	if err != nil {
		return fail(err)
	}
	releaseSrc()
	started := s.now()
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'running', op = '', op_until = 0, auto_stop_at = $1, updated_at = $2 WHERE id = $3`,
			store.Micros(started.Add(time.Duration(m.TTLSeconds)*time.Second)), store.Micros(started), m.ID); err != nil {
			return fmt.Errorf("machine started: %w", err)
		}
		if err := openInterval(ctx, tx, m, ids.New("mbi"), store.Micros(started)); err != nil {
			return err
		}
		if len(injected) > 0 {
			if err := audit.Record(ctx, tx, p.OrgID, p, "machine.credentials_inject", audit.Target{Type: "machine", ID: m.ID},
				map[string]any{"credential_ids": injected, "dir": CredentialsDir}); err != nil {
				return err
			}
		}
		return tx.Notify(ctx, Topic, m.ID)
	})
	if err != nil {
		// The sandbox runs but the row could not say so: remove the sandbox
		// rather than run it unbilled.
		_ = s.rt.Delete(context.WithoutCancel(ctx), m.sandboxID)
		return fail(err)
	}
	return s.Get(ctx, p, m.ID)
}

// forkSandbox starts spec as a fork of src: from its last snapshot when it is
// stopped, from a fresh snapshot when it runs (the source pauses while the
// snapshot is written and then continues, with its processes, connections
// and address).
func (s *Service) forkSandbox(ctx context.Context, src Machine, spec SandboxSpec) error {
	snap := src.lastSnapshot
	if src.State == StateRunning {
		var err error
		snap, err = s.rt.Snapshot(ctx, src.sandboxID)
		if err != nil {
			return err
		}
		if err := s.db.InTx(context.WithoutCancel(ctx), func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE machines SET last_snapshot = $1 WHERE id = $2`, snap, src.ID)
			return err
		}); err != nil {
			return err
		}
	}
	return s.rt.Fork(ctx, src.sandboxID, snap, spec)
}

// claim takes the lifecycle lease of m for op if m is (still) in state from.
func (s *Service) claim(ctx context.Context, tx *store.Tx, m Machine, op string, from State) error {
	now := s.now()
	res, err := tx.ExecContext(ctx, `UPDATE machines SET op = $1, op_until = $2 WHERE id = $3 AND state = $4 AND (op = '' OR op_until < $5)`,
		op, store.Micros(now.Add(opLease)), m.ID, string(from), store.Micros(now))
	if err != nil {
		return fmt.Errorf("claim machine: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apierr.Conflict(apierr.CodeInvalidState, "another operation (%s) is in progress on the machine", opName(m.op)).
			WithHint("retry when it has finished")
	}
	return nil
}

func opName(op string) string {
	if op == "" {
		return "a state change"
	}
	return op
}

// release ends the lease op on machine id without changing its state.
func (s *Service) release(ctx context.Context, id, op string) {
	if err := s.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE machines SET op = '', op_until = 0 WHERE id = $1 AND op = $2`, id, op)
		return err
	}); err != nil {
		s.log.Error("could not release machine", "machine", id, "err", err)
	}
}

// begin reads machine id of p and claims it for op if its state is one of
// from; otherwise 409 invalid_state.
func (s *Service) begin(ctx context.Context, p *auth.Principal, id, op string, from ...State) (Machine, error) {
	var m Machine
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		m, err = getMachine(ctx, tx, p.OrgID, agentFilter(p), id)
		if err != nil {
			return err
		}
		ok := false
		for _, f := range from {
			ok = ok || m.State == f
		}
		if !ok {
			return invalidState(m, op)
		}
		if op == "resume" {
			if m.lastSnapshot == "" {
				return apierr.Conflict(apierr.CodeInvalidState, "the machine has no snapshot to resume from").WithHint("delete it and create a new one")
			}
			if err := checkQuota(ctx, tx, m.orgID, s.now()); err != nil {
				return err
			}
		}
		return s.claim(ctx, tx, m, op, m.State)
	})
	return m, err
}

func agentFilter(p *auth.Principal) string {
	if p.Kind == auth.KindAgent {
		return p.AgentID
	}
	return ""
}

func invalidState(m Machine, op string) *apierr.Error {
	hint := ""
	switch m.State {
	case StateStopped:
		hint = "resume the machine first"
	case StateRunning:
		hint = "stop the machine first"
	case StateFailed:
		hint = "the machine lost its sandbox without a snapshot; delete it"
	case StateCreating:
		hint = "wait until it is running"
	}
	return apierr.Conflict(apierr.CodeInvalidState, "cannot %s a machine that is %s", op, m.State).WithHint(hint)
}

// Get returns a machine of the calling agent.
func (s *Service) Get(ctx context.Context, p *auth.Principal, id string) (Machine, error) {
	if err := agentOnly(p); err != nil {
		return Machine{}, err
	}
	return getMachine(ctx, s.db, p.OrgID, p.AgentID, id)
}

// List returns the calling agent's machines (deleted ones excepted), newest
// first, after the id after when not empty.
func (s *Service) List(ctx context.Context, p *auth.Principal, limit int, after string) ([]Machine, error) {
	if err := agentOnly(p); err != nil {
		return nil, err
	}
	return listMachines(ctx, s.db, `org_id = $1 AND agent_id = $2 AND state <> 'deleted' AND ($3 = '' OR id < $3) ORDER BY id DESC LIMIT $4`,
		p.OrgID, p.AgentID, after, limit)
}

// Stop checkpoints a running machine (memory and disk), releases its sandbox
// and stops billing.
func (s *Service) Stop(ctx context.Context, p *auth.Principal, id string) (Machine, error) {
	if err := agentOnly(p); err != nil {
		return Machine{}, err
	}
	m, err := s.begin(ctx, p, id, "stop", StateRunning)
	if err != nil {
		return Machine{}, err
	}
	if err := s.stop(ctx, p, m, StopByUser); err != nil {
		return Machine{}, err
	}
	return s.Get(ctx, p, id)
}

// stop checkpoints m, whose "stop" lease the caller holds.
func (s *Service) stop(ctx context.Context, p *auth.Principal, m Machine, reason string) error {
	snap, err := s.rt.Checkpoint(ctx, m.sandboxID)
	if err != nil {
		s.release(context.WithoutCancel(ctx), m.ID, "stop")
		return s.mapRuntime(err)
	}
	return s.db.InTx(context.WithoutCancel(ctx), func(tx *store.Tx) error {
		if err := s.setStopped(ctx, tx, m, snap, reason, s.now()); err != nil {
			return err
		}
		return audit.Record(ctx, tx, m.orgID, p, "machine.stop", audit.Target{Type: "machine", ID: m.ID}, map[string]any{"reason": reason})
	})
}

func (s *Service) setStopped(ctx context.Context, tx *store.Tx, m Machine, snap, reason string, at time.Time) error {
	if err := closeInterval(ctx, tx, m.ID, store.Micros(at)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'stopped', last_snapshot = $1, stop_reason = $2, auto_stop_at = 0,
		op = '', op_until = 0, updated_at = $3 WHERE id = $4`, snap, reason, store.Micros(s.now()), m.ID); err != nil {
		return fmt.Errorf("machine stopped: %w", err)
	}
	return tx.Notify(ctx, Topic, m.ID)
}

func (s *Service) markStopped(ctx context.Context, m Machine, snap, reason string, at time.Time) {
	if err := s.db.InTx(ctx, func(tx *store.Tx) error { return s.setStopped(ctx, tx, m, snap, reason, at) }); err != nil {
		s.log.Error("could not record a stopped machine", "machine", m.ID, "err", err)
	}
}

// Resume restores a stopped machine from its last snapshot; its processes
// continue where they were.
func (s *Service) Resume(ctx context.Context, p *auth.Principal, id string) (Machine, error) {
	if err := agentOnly(p); err != nil {
		return Machine{}, err
	}
	m, err := s.begin(ctx, p, id, "resume", StateStopped)
	if err != nil {
		return Machine{}, err
	}
	if err := s.rt.Restore(ctx, m.sandboxID, m.lastSnapshot); err != nil {
		s.release(context.WithoutCancel(ctx), m.ID, "resume")
		return Machine{}, s.mapRuntime(err)
	}
	if err := s.setRunning(context.WithoutCancel(ctx), p, m, "machine.resume"); err != nil {
		return Machine{}, err
	}
	return s.Get(ctx, p, id)
}

func (s *Service) setRunning(ctx context.Context, p *auth.Principal, m Machine, action string) error {
	started := s.now()
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'running', stop_reason = '', auto_stop_at = $1, op = '', op_until = 0, updated_at = $2 WHERE id = $3`,
			store.Micros(started.Add(time.Duration(m.TTLSeconds)*time.Second)), store.Micros(started), m.ID); err != nil {
			return fmt.Errorf("machine running: %w", err)
		}
		if err := openInterval(ctx, tx, m, ids.New("mbi"), store.Micros(started)); err != nil {
			return err
		}
		if action != "" {
			if err := audit.Record(ctx, tx, m.orgID, p, action, audit.Target{Type: "machine", ID: m.ID}, nil); err != nil {
				return err
			}
		}
		return tx.Notify(ctx, Topic, m.ID)
	})
}

// Delete removes a machine's sandbox and all its snapshots, permanently, and
// ends its billing. It returns the machine as deleted.
func (s *Service) Delete(ctx context.Context, p *auth.Principal, id string) (Machine, error) {
	if err := agentOnly(p); err != nil {
		return Machine{}, err
	}
	m, err := s.begin(ctx, p, id, "delete", StateRunning, StateStopped, StateFailed, StateCreating)
	if err != nil {
		return Machine{}, err
	}
	if err := s.delete(ctx, p, m); err != nil {
		return Machine{}, err
	}
	m.State = StateDeleted
	m.AutoStopAt = nil
	d, err := getMachineByID(ctx, s.db, id)
	if err != nil {
		return m, nil
	}
	return d, nil
}

func (s *Service) delete(ctx context.Context, p *auth.Principal, m Machine) error {
	if err := s.rt.Delete(ctx, m.sandboxID); err != nil && !errors.Is(err, ErrNotFound) {
		s.release(context.WithoutCancel(ctx), m.ID, "delete")
		return s.mapRuntime(err)
	}
	ctx = context.WithoutCancel(ctx)
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		if err := closeInterval(ctx, tx, m.ID, store.Micros(s.now())); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE machines SET state = 'deleted', last_snapshot = '', auto_stop_at = 0, op = '', op_until = 0, updated_at = $1 WHERE id = $2`,
			store.Micros(s.now()), m.ID); err != nil {
			return fmt.Errorf("machine deleted: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM machine_ports WHERE machine_id = $1`, m.ID); err != nil {
			return fmt.Errorf("machine deleted: %w", err)
		}
		if err := audit.Record(ctx, tx, m.orgID, p, "machine.delete", audit.Target{Type: "machine", ID: m.ID}, nil); err != nil {
			return err
		}
		return tx.Notify(ctx, Topic, m.ID)
	})
}

// running returns machine id of p if it is running (for run, files, ports).
func (s *Service) running(ctx context.Context, p *auth.Principal, id, what string) (Machine, error) {
	m, err := s.Get(ctx, p, id)
	if err != nil {
		return Machine{}, err
	}
	if m.State != StateRunning && m.State != StateReady {
		return Machine{}, invalidState(m, what)
	}
	if m.op == "stop" || m.op == "delete" {
		return Machine{}, apierr.Conflict(apierr.CodeInvalidState, "the machine is being %s", map[string]string{"stop": "stopped", "delete": "deleted"}[m.op])
	}
	return m, nil
}
