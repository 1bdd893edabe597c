package machines

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Limits of commands and files.
const (
	DefaultRunTimeout = 60 * time.Second
	MaxRunTimeout     = 3600 * time.Second
	MaxCommandBytes   = 64 << 10
	// MaxOutputBytes bounds each of stdout and stderr of a command; the rest
	// is dropped and reported as truncated.
	MaxOutputBytes = 1 << 20
	// MaxFileBytes bounds a file read or written through the API.
	MaxFileBytes = 8 << 20
)

// Output encodings.
const (
	EncodingText   = "text"
	EncodingBase64 = "base64"
)

// RunRequest is a command to run.
type RunRequest struct {
	Command string
	// Timeout: 0 means DefaultRunTimeout.
	Timeout time.Duration
}

// RunResult is a finished command. Stdout and Stderr are text when the bytes
// are valid UTF-8 and base64 otherwise, as their Encoding fields say.
type RunResult struct {
	ExitCode        int    `json:"exit_code" doc:"The command's exit status; -1 when it was killed at the timeout; 128+N when killed by signal N."`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	StdoutEncoding  string `json:"stdout_encoding" enum:"text,base64" doc:"text when stdout is valid UTF-8, else base64 of the bytes."`
	StderrEncoding  string `json:"stderr_encoding" enum:"text,base64"`
	StdoutTruncated bool   `json:"stdout_truncated" doc:"stdout was longer than 1 MiB; the rest was dropped."`
	StderrTruncated bool   `json:"stderr_truncated"`
	TimedOut        bool   `json:"timed_out" doc:"The command ran into timeout_seconds and its process group was killed."`
	DurationMS      int64  `json:"duration_ms"`
}

func encode(b []byte) (string, string) {
	if utf8.Valid(b) {
		return string(b), EncodingText
	}
	return base64.StdEncoding.EncodeToString(b), EncodingBase64
}

// Run runs a command with bash -c in a running machine. Several commands may
// run at once on one machine.
func (s *Service) Run(ctx context.Context, p *auth.Principal, id string, req RunRequest) (RunResult, error) {
	if strings.TrimSpace(req.Command) == "" {
		return RunResult{}, apierr.Invalid("command", "is required")
	}
	if len(req.Command) > MaxCommandBytes {
		return RunResult{}, apierr.Invalid("command", "must be at most %d bytes", MaxCommandBytes)
	}
	if req.Timeout == 0 {
		req.Timeout = DefaultRunTimeout
	}
	if req.Timeout < time.Second || req.Timeout > MaxRunTimeout {
		return RunResult{}, apierr.Invalid("timeout_seconds", "must be between 1 and %d", int(MaxRunTimeout/time.Second))
	}
	m, err := s.running(ctx, p, id, "run a command on")
	if err != nil {
		return RunResult{}, err
	}
	res, err := s.rt.Exec(ctx, m.sandboxID, ExecRequest{Command: req.Command, Timeout: req.Timeout, MaxOutputBytes: MaxOutputBytes})
	if err != nil {
		if errors.Is(err, ErrNotRunning) {
			// The sandbox stopped under the command: a stop in progress, or
			// a death that the heartbeat's check should record now rather
			// than at the next beat (worker.go, reapDead).
			_ = s.Kick(context.WithoutCancel(ctx))
		}
		return RunResult{}, s.mapRuntime(err)
	}
	out := RunResult{ExitCode: res.ExitCode, StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		TimedOut: res.TimedOut, DurationMS: res.Duration.Milliseconds()}
	out.Stdout, out.StdoutEncoding = encode(res.Stdout)
	out.Stderr, out.StderrEncoding = encode(res.Stderr)
	return out, nil
}

// cleanPath checks a path given by a client: absolute, without . or ..
// segments (refused rather than resolved, so what a client sees is what it
// sent), not under /proc, /sys or /dev. The runtime resolves the path inside
// the sandbox's own kernel, so symlinks cannot reach the host either.
func cleanPath(p string) (string, error) {
	if p == "" {
		return "", apierr.Invalid("path", "is required")
	}
	if len(p) > 4096 || strings.ContainsRune(p, 0) {
		return "", apierr.Invalid("path", "is not a usable path")
	}
	if !strings.HasPrefix(p, "/") {
		return "", apierr.Invalid("path", "must be absolute (start with /)")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." {
			return "", apierr.Invalid("path", "must not contain . or .. segments")
		}
	}
	c := path.Clean(p)
	for _, k := range []string{"/proc", "/sys", "/dev"} {
		if c == k || strings.HasPrefix(c, k+"/") {
			return "", apierr.Invalid("path", "%s is not a file of the machine", k)
		}
	}
	return c, nil
}

// File is a file read from a machine.
type File struct {
	Path     string `json:"path"`
	Size     int    `json:"size" doc:"Size in bytes."`
	Encoding string `json:"encoding" enum:"text,base64" doc:"text when the content is valid UTF-8 without NUL bytes, else base64."`
	Content  string `json:"content"`
}

// ReadFile reads a file of a running machine (at most MaxFileBytes).
func (s *Service) ReadFile(ctx context.Context, p *auth.Principal, id, filePath string) (File, error) {
	c, err := cleanPath(filePath)
	if err != nil {
		return File{}, err
	}
	m, err := s.running(ctx, p, id, "read files of")
	if err != nil {
		return File{}, err
	}
	data, err := s.rt.ReadFile(ctx, m.sandboxID, c, MaxFileBytes)
	if err != nil {
		return File{}, s.mapRuntime(err)
	}
	f := File{Path: c, Size: len(data)}
	if utf8.Valid(data) && !strings.ContainsRune(string(data), 0) {
		f.Content, f.Encoding = string(data), EncodingText
	} else {
		f.Content, f.Encoding = base64.StdEncoding.EncodeToString(data), EncodingBase64
	}
	return f, nil
}

// WrittenFile describes a file written.
type WrittenFile struct {
	Path string `json:"path"`
	Size int    `json:"size"`
}

// WriteFile creates or replaces a file of a running machine (mode 0644),
// creating missing parent directories.
func (s *Service) WriteFile(ctx context.Context, p *auth.Principal, id, filePath string, data []byte) (WrittenFile, error) {
	c, err := cleanPath(filePath)
	if err != nil {
		return WrittenFile{}, err
	}
	if len(data) > MaxFileBytes {
		return WrittenFile{}, &apierr.Error{Status: 413, Code: apierr.CodePayloadTooLarge, Message: fmt.Sprintf("files are at most %d bytes", MaxFileBytes)}
	}
	m, err := s.running(ctx, p, id, "write files of")
	if err != nil {
		return WrittenFile{}, err
	}
	if err := s.rt.WriteFile(ctx, m.sandboxID, c, data, 0o644); err != nil {
		return WrittenFile{}, s.mapRuntime(err)
	}
	return WrittenFile{Path: c, Size: len(data)}, nil
}

// Port is an exposed port.
type Port struct {
	Port int    `json:"port"`
	URL  string `json:"url" doc:"Stable public URL of the port; keeps working after stop and resume."`
}

// ExposePort makes port of a running machine reachable at a stable public
// URL (exposing it again returns the same URL).
func (s *Service) ExposePort(ctx context.Context, p *auth.Principal, id string, port int) (Port, error) {
	if port < 1 || port > 65535 {
		return Port{}, apierr.Invalid("port", "must be between 1 and 65535")
	}
	if port == agent.Port {
		return Port{}, apierr.Invalid("port", "%d is the machine agent's port and cannot be exposed", agent.Port)
	}
	m, err := s.running(ctx, p, id, "expose a port of")
	if err != nil {
		return Port{}, err
	}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM machine_ports WHERE machine_id = $1 AND port = $2`, m.ID, port).Scan(&n); err != nil {
			return fmt.Errorf("expose port: %w", err)
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO machine_ports (machine_id, port, created_at) VALUES ($1, $2, $3)`,
			m.ID, port, store.Micros(s.now())); err != nil {
			return fmt.Errorf("expose port: %w", err)
		}
		return nil
	})
	if err != nil {
		return Port{}, err
	}
	return Port{Port: port, URL: s.opts.PortURL(m.ID, port)}, nil
}
