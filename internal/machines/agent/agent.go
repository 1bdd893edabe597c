// Package agent is the small program that runs inside every machine sandbox
// and executes the host's commands and file operations, and the host's client
// for it.
//
// Why an agent: the sandbox's PID 1 must start every command (gVisor kills
// processes descended from a `runsc exec` session when a snapshot is
// restored, and background processes must survive stop/resume). Handing each
// request to a bash PID 1 over a FIFO through `runsc exec` costs a runsc
// process on the host plus several fork+execs inside gVisor per command. The
// agent is started once by PID 1 when the sandbox boots, so it and everything
// it starts are ordinary descendants of init that survive checkpoint and
// restore; the host talks to it over the sandbox's own network address
// (plain HTTP on Port), without any runsc process per command.
//
// Protocol (HTTP/1.1, every request needs "Authorization: Bearer <token>"):
//
//	GET  /v1/ping                       → 204 (readiness; checks the token)
//	POST /v1/exec     JSON ExecRequest  → JSON ExecResult
//	GET  /v1/file?path=P&max=N          → 200 raw content | 4xx JSON Error
//	PUT  /v1/file?path=P&mode=0600 body → 204 | 4xx JSON Error
//
// Security: the token is a per-sandbox random secret the host generates at
// create and hands to the agent through PID 1's environment (the agent
// removes it from its own environment, so commands do not inherit it). Other
// sandboxes cannot reach the agent at all (the host's firewall drops
// sandbox-to-sandbox traffic); the token keeps out requests that reach the
// port another way, such as through the machine's public port URLs, and
// unprivileged users inside the machine. The machine's root user can read
// PID 1's environment and so talk to the agent: that gives it nothing it does
// not already have.
//
// The agent does not import the machines service so that its static binary
// stays small (cmd/agentsvc-agent, built with CGO_ENABLED=0).
package agent

import (
	"fmt"
	"time"
)

// Port is the TCP port the agent listens on in every sandbox (all
// addresses, so a fork, which gets a new address, still reaches it). A
// machine's own server cannot bind it.
const Port = 49983

// TokenEnv is the environment variable that carries the token to the agent.
const TokenEnv = "AGENTSVC_AGENT_TOKEN"

// Defaults the server applies when a request leaves them zero.
const (
	DefaultTimeout   = time.Minute
	DefaultMaxOutput = 1 << 20
	// KillGrace is how long a timed-out command's process group has
	// between SIGTERM and SIGKILL.
	KillGrace = 2 * time.Second
)

// ExecRequest is a command to run with bash -c.
type ExecRequest struct {
	Command string `json:"command"`
	// TimeoutMillis bounds the run; at the deadline the command's process
	// group is killed. 0 means DefaultTimeout.
	TimeoutMillis int64 `json:"timeout_ms,omitempty"`
	// MaxOutput bounds each of stdout and stderr; 0 means DefaultMaxOutput.
	MaxOutput int    `json:"max_output,omitempty"`
	Stdin     []byte `json:"stdin,omitempty"`
	// Env entries (KEY=value) are added to the agent's environment.
	Env []string `json:"env,omitempty"`
	// Dir is the working directory; empty, or one that does not exist,
	// means /root (as with the FIFO path).
	Dir string `json:"dir,omitempty"`
}

// ExecResult is what became of an ExecRequest.
type ExecResult struct {
	// ExitCode is the exit status, 128+N after signal N, -1 on timeout.
	ExitCode        int    `json:"exit_code"`
	Stdout          []byte `json:"stdout"`
	Stderr          []byte `json:"stderr"`
	StdoutTruncated bool   `json:"stdout_truncated,omitempty"`
	StderrTruncated bool   `json:"stderr_truncated,omitempty"`
	TimedOut        bool   `json:"timed_out,omitempty"`
	DurationMillis  int64  `json:"duration_ms"`
}

// Error codes of file operations (the Code of Error).
const (
	CodeNotFound   = "not_found"   // no such file (or parent, for reads)
	CodeBadPath    = "bad_path"    // not absolute, or resolves under /proc, /sys, /dev
	CodeTooLarge   = "too_large"   // the file is larger than max
	CodeNotRegular = "not_regular" // a directory or device
	CodeFailed     = "failed"      // anything else (permissions, disk full, ...)
)

// Error is the JSON body of a failed request, and the error the Client
// returns for it.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("agent: %s: %s", e.Code, e.Message) }
