package machines

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"time"
)

// Runtime runs machine sandboxes. The service talks to machines only through
// this interface so that another isolation technology (a KVM microVM runtime,
// or Kubernetes with a gVisor RuntimeClass) can replace the gVisor one
// without touching the service. Implementations are safe for concurrent use.
//
// Lifecycle as seen by a Runtime:
//
//	Create ──► running ──Checkpoint──► (no sandbox; snapshot on disk)
//	              ▲                          │
//	              └─────────Restore──────────┘
//	Fork(snapshot) ──► running (a new id)
//	Delete from any state removes the sandbox, its writable layer and snapshots.
type Runtime interface {
	// Create starts a sandbox over the shared base image with a writable
	// layer of its own, writes spec.Files into it, and returns once commands
	// can run.
	Create(ctx context.Context, spec SandboxSpec) error
	// Exec runs req.Command with bash -c inside the running sandbox id.
	// A non-zero exit or a timeout is reported in ExecResult, not as error.
	Exec(ctx context.Context, id string, req ExecRequest) (ExecResult, error)
	// ReadFile reads up to max bytes of path as resolved inside the sandbox;
	// ErrFileTooLarge when the file is bigger.
	ReadFile(ctx context.Context, id, path string, max int64) ([]byte, error)
	// WriteFile writes data to path as resolved inside the sandbox, creating
	// parent directories.
	WriteFile(ctx context.Context, id, path string, data []byte, mode os.FileMode) error
	// Checkpoint saves memory and filesystem of the running sandbox id as a
	// new snapshot, releases the sandbox and returns the snapshot's name.
	Checkpoint(ctx context.Context, id string) (snapshot string, err error)
	// Snapshot saves memory and filesystem of the running sandbox id as a
	// new snapshot and leaves it running (a short pause); forks of a running
	// machine start from such a snapshot.
	Snapshot(ctx context.Context, id string) (snapshot string, err error)
	// Restore starts the stopped sandbox id again from one of its snapshots;
	// its processes continue where they were.
	Restore(ctx context.Context, id, snapshot string) error
	// Fork starts a new sandbox newID from snapshot of sandbox srcID; the
	// source is not affected. The fork has its own writable layer and address.
	Fork(ctx context.Context, srcID, snapshot string, spec SandboxSpec) error
	// Address is the sandbox's IP address, reachable from the host (for the
	// port proxy) and from nowhere else.
	Address(ctx context.Context, id string) (netip.Addr, error)
	// Delete removes the sandbox id in any state, with its writable layer,
	// network and snapshots. Deleting an unknown id is ErrNotFound.
	Delete(ctx context.Context, id string) error
	// List reports every sandbox this runtime knows on this host, running or
	// stopped, so the service can reconcile after a restart.
	List(ctx context.Context) ([]SandboxState, error)
}

// Limits bound a sandbox's resources.
type Limits struct {
	// CPUs is the CPU quota in cores (0.5 = half a core); 0 means no limit.
	CPUs float64
	// MemoryBytes bounds the sandbox's memory, its in-memory files included;
	// 0 means no limit.
	MemoryBytes int64
	// PIDs bounds the number of tasks inside the sandbox so that a fork bomb
	// stays inside; 0 means the runtime's default.
	PIDs int64
}

// SandboxSpec describes a sandbox to create.
type SandboxSpec struct {
	// ID names the sandbox: 1 to 48 characters of [a-z0-9-], unique per host.
	ID string
	// Image is the base root filesystem directory (see package image). It is
	// shared read-only between sandboxes.
	Image string
	// Limits bound the sandbox's resources.
	Limits Limits
	// Env is added to the environment of every command ("KEY=value").
	Env []string
	// Files are written into the sandbox before Create returns, with mode
	// 0600 (for example injected credentials). Keys are absolute paths.
	Files map[string][]byte
}

// ExecRequest is a command to run in a sandbox.
type ExecRequest struct {
	// Command is run by bash -c.
	Command string
	// Timeout bounds the run; at the limit the whole process tree of the
	// command is killed. 0 means one minute.
	Timeout time.Duration
	// MaxOutputBytes bounds each of stdout and stderr; the rest is discarded
	// and reported as truncated. 0 means 1 MiB.
	MaxOutputBytes int
	// Stdin is given to the command; nil means an empty stdin.
	Stdin []byte
	// Env is added to the sandbox's environment for this command.
	Env []string
	// Dir is the working directory; empty means /root.
	Dir string
}

// ExecResult is the outcome of a command.
type ExecResult struct {
	// ExitCode is the command's exit status; -1 when it was killed at the
	// timeout. A command killed by signal N reports 128+N, as bash does.
	ExitCode        int
	Stdout, Stderr  []byte
	StdoutTruncated bool
	StderrTruncated bool
	TimedOut        bool
	Duration        time.Duration
}

// Status is a sandbox's state as the runtime sees it.
type Status string

const (
	// StatusRunning: the sandbox runs and accepts commands.
	StatusRunning Status = "running"
	// StatusStopped: no sandbox process; Snapshots holds its checkpoints.
	StatusStopped Status = "stopped"
	// StatusBroken: the sandbox should run but its process is gone (for
	// example the host rebooted); restore it from a snapshot or delete it.
	StatusBroken Status = "broken"
)

// SandboxState is one entry of List.
type SandboxState struct {
	ID     string
	Status Status
	// Address is set while the sandbox runs.
	Address netip.Addr
	// Snapshots are the sandbox's checkpoints, oldest first.
	Snapshots []string
	// Created is when the sandbox was first created.
	Created time.Time
}

var (
	// ErrNotFound: no sandbox (or snapshot) with that id.
	ErrNotFound = errors.New("machines: sandbox not found")
	// ErrExists: a sandbox with that id already exists.
	ErrExists = errors.New("machines: sandbox already exists")
	// ErrNotRunning: the operation needs a running sandbox.
	ErrNotRunning = errors.New("machines: sandbox not running")
	// ErrRunning: the operation needs a stopped sandbox.
	ErrRunning = errors.New("machines: sandbox is running")
	// ErrUnavailable: the runtime cannot run sandboxes on this host (runsc or
	// the base image is missing); see the wrapped error for which. The
	// service answers 503 naming scripts/ensure-runsc.sh and
	// scripts/ensure-image.sh.
	ErrUnavailable = errors.New("machines: sandbox runtime unavailable")
	// ErrBadPath: a file path is not absolute, or names /proc, /sys or /dev.
	ErrBadPath = errors.New("machines: bad path")
	// ErrFileTooLarge: ReadFile found a file above the limit.
	ErrFileTooLarge = errors.New("machines: file too large")
	// ErrFileNotFound: ReadFile found no regular file at the path.
	ErrFileNotFound = errors.New("machines: file not found")
)
