package gvisor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
)

const (
	defaultTimeout   = time.Minute
	defaultMaxOutput = 1 << 20
	// killGrace is how long a timed-out command has between SIGTERM and
	// SIGKILL.
	killGrace = 2 * time.Second
	// pipeGrace bounds how long Exec waits for output after the command
	// exited: a background process started by the command may hold stdout
	// open forever.
	pipeGrace = 200 * time.Millisecond
	// timedOutStatus is coreutils timeout's exit status after a timeout.
	timedOutStatus = 124
)

// Exec implements machines.Runtime.
//
// Sandboxes with the agent run the command there (agentexec.go). Otherwise,
// or when the agent cannot be reached, the command runs as `timeout -k 2s <T> bash -c <command>`, started by the
// sandbox's init (see initScript for why not by runsc exec itself).
// coreutils timeout puts itself and the command in a process group of their
// own and signals the whole group at the deadline, so background children of
// the command die with it (a child that calls setsid escapes the group; it is
// still bounded by the sandbox's limits). A host-side deadline a little later
// is the backstop if the sandbox stops answering.
func (r *Runtime) Exec(ctx context.Context, id string, req machines.ExecRequest) (machines.ExecResult, error) {
	if req.Timeout <= 0 {
		req.Timeout = defaultTimeout
	}
	if req.MaxOutputBytes <= 0 {
		req.MaxOutputBytes = defaultMaxOutput
	}
	dir := req.Dir
	if dir == "" {
		dir = "/root"
	}
	hasStdin := "0"
	if req.Stdin != nil {
		hasStdin = "1"
	}
	m, err := r.runningMeta(id)
	if err != nil {
		return machines.ExecResult{}, err
	}
	if res, ok, err := r.agentExec(ctx, m, req); ok {
		return res, err
	}
	secs := strconv.FormatFloat(req.Timeout.Seconds(), 'f', 3, 64)
	argv := []string{"bash", "-c", execClient, "agentsvc-exec", secs, dir, req.Command, hasStdin, strconv.Itoa(req.MaxOutputBytes + 1)}
	argv = append(argv, req.Env...)
	// The client gets the command's output only after it ended, so the
	// pipe never holds on for a background process.
	res, err := r.execArgv(ctx, id, argv, machines.ExecRequest{
		Timeout: req.Timeout, MaxOutputBytes: req.MaxOutputBytes, Stdin: req.Stdin,
	})
	if err != nil {
		return res, err
	}
	if res.ExitCode == timedOutStatus || res.ExitCode == 128+9 {
		// 124 is timeout's answer after SIGTERM worked, 137 after it had to
		// use SIGKILL; the command's own 124 or 137 before the deadline
		// is not a timeout.
		if res.Duration >= req.Timeout {
			res.TimedOut = true
			res.ExitCode = -1
		}
	}
	return res, nil
}

// execArgv runs argv in sandbox id with runsc exec.
func (r *Runtime) execArgv(ctx context.Context, id string, argv []string, req machines.ExecRequest) (machines.ExecResult, error) {
	var res machines.ExecResult
	if req.MaxOutputBytes <= 0 {
		req.MaxOutputBytes = defaultMaxOutput
	}
	if err := r.available(""); err != nil {
		return res, err
	}
	m, err := r.readMeta(id)
	if err != nil {
		return res, err
	}
	if !m.Running {
		return res, fmt.Errorf("%w: %s", machines.ErrNotRunning, id)
	}
	args := []string{"--root", r.root, "exec", "--cwd", "/"}
	for _, e := range append(baseEnv(), m.Env...) {
		args = append(args, "--env", e)
	}
	args = append(args, id)
	args = append(args, argv...)

	// The host-side deadline only matters when the sandbox hangs: the
	// in-sandbox timeout normally ends the command first.
	hctx, cancel := context.WithTimeout(ctx, req.Timeout+killGrace+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(hctx, r.runsc, args...)
	stdout := &boundedBuffer{max: req.MaxOutputBytes}
	stderr := &boundedBuffer{max: req.MaxOutputBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if req.Stdin != nil {
		cmd.Stdin = bytes.NewReader(req.Stdin)
	}
	cmd.WaitDelay = pipeGrace
	start := time.Now()
	err = cmd.Run()
	res.Duration = time.Since(start)
	res.Stdout, res.StdoutTruncated = stdout.buf.Bytes(), stdout.truncated
	res.Stderr, res.StderrTruncated = stderr.buf.Bytes(), stderr.truncated
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited but something it started still holds the
		// output open; the exit status is valid.
		res.ExitCode = cmd.ProcessState.ExitCode()
	case hctx.Err() != nil && ctx.Err() == nil:
		res.TimedOut, res.ExitCode = true, -1
	case ctx.Err() != nil:
		return res, fmt.Errorf("gvisor: exec in %s: %w", id, ctx.Err())
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if res.ExitCode == 128 && strings.Contains(string(res.Stderr), "cannot exec in a stopped container") {
			return res, fmt.Errorf("%w: %s", machines.ErrNotRunning, id)
		}
	default:
		return res, fmt.Errorf("gvisor: exec in %s: %w", id, err)
	}
	return res, nil
}

// boundedBuffer keeps the first max bytes written and notes the rest was cut.
// It never fails a write, so the command is not killed by SIGPIPE.
type boundedBuffer struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	room := b.max - b.buf.Len()
	if room < len(p) {
		b.truncated = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

// checkPath rejects paths that are not absolute or that name the sandbox's
// kernel interfaces. The path is resolved inside the sandbox, by the
// sandbox's own kernel, so `..` and symlinks cannot leave its root; the
// shell scripts below check the resolved path again for the same prefixes.
func checkPath(p string) (string, error) {
	if p == "" || !strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q must be absolute", machines.ErrBadPath, p)
	}
	clean := path.Clean(p)
	if kernelPath(clean) {
		return "", fmt.Errorf("%w: %q is under /proc, /sys or /dev", machines.ErrBadPath, p)
	}
	if clean == "/" {
		return "", fmt.Errorf("%w: %q is a directory", machines.ErrBadPath, p)
	}
	return clean, nil
}

func kernelPath(p string) bool {
	for _, pre := range []string{"/proc", "/sys", "/dev"} {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

// Exit statuses of the file scripts, chosen outside what the tools use.
const (
	fileNotFound = 90
	fileBadPath  = 91
	fileTooLarge = 92
	fileNotReg   = 93
)

// guard resolves $1 (symlinks included, missing tail allowed when $mode is
// -m) and rejects kernel file systems.
const guard = `p=$(realpath $mode -- "$1" 2>/dev/null) || exit 90
case "$p" in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) exit 91;; esac
`

const readScript = `mode=-e
` + guard + `[ -f "$p" ] || exit 93
size=$(stat -c %s -- "$p") || exit 90
[ "$size" -le "$2" ] || exit 92
exec cat -- "$p"`

const writeScript = `mode=-m
` + guard + `[ -d "$p" ] && exit 93
mkdir -p -- "$(dirname -- "$p")" || exit 1
tmp="$p.agentsvc-$$"
cat > "$tmp" && chmod "$2" "$tmp" && mv -f -- "$tmp" "$p" || { rm -f -- "$tmp"; exit 1; }`

// ReadFile implements machines.Runtime.
func (r *Runtime) ReadFile(ctx context.Context, id, p string, max int64) ([]byte, error) {
	clean, err := checkPath(p)
	if err != nil {
		return nil, err
	}
	if max <= 0 {
		max = defaultMaxOutput
	}
	m, err := r.runningMeta(id)
	if err != nil {
		return nil, err
	}
	if c := r.agentFor(m); c != nil {
		data, err := c.ReadFile(ctx, clean, max)
		if err == nil {
			return data, nil
		}
		if !agent.IsUnreachable(err) || ctx.Err() != nil {
			return nil, r.notRunningOr(id, agentFileError(p, err))
		}
	}
	res, err := r.execArgv(ctx, id, []string{"bash", "-c", readScript, "read", clean, strconv.FormatInt(max, 10)},
		machines.ExecRequest{Timeout: time.Minute, MaxOutputBytes: int(max) + 1})
	if err != nil {
		return nil, err
	}
	if err := fileStatus(res, p); err != nil {
		return nil, err
	}
	if int64(len(res.Stdout)) > max {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", machines.ErrFileTooLarge, p, max)
	}
	return res.Stdout, nil
}

// WriteFile implements machines.Runtime. The file is written under a
// temporary name and renamed, so readers never see half of it.
func (r *Runtime) WriteFile(ctx context.Context, id, p string, data []byte, mode os.FileMode) error {
	clean, err := checkPath(p)
	if err != nil {
		return err
	}
	if data == nil {
		data = []byte{}
	}
	m, err := r.runningMeta(id)
	if err != nil {
		return err
	}
	if c := r.agentFor(m); c != nil {
		err := c.WriteFile(ctx, clean, data, uint32(mode.Perm()))
		if err == nil {
			return nil
		}
		if !agent.IsUnreachable(err) || ctx.Err() != nil {
			return r.notRunningOr(id, agentFileError(p, err))
		}
	}
	res, err := r.execArgv(ctx, id, []string{"bash", "-c", writeScript, "write", clean, strconv.FormatUint(uint64(mode.Perm()), 8)},
		machines.ExecRequest{Timeout: time.Minute, MaxOutputBytes: 4096, Stdin: data})
	if err != nil {
		return err
	}
	return fileStatus(res, p)
}

func fileStatus(res machines.ExecResult, p string) error {
	switch res.ExitCode {
	case 0:
		return nil
	case fileNotFound:
		return fmt.Errorf("%w: %s", machines.ErrFileNotFound, p)
	case fileBadPath:
		return fmt.Errorf("%w: %q resolves under /proc, /sys or /dev", machines.ErrBadPath, p)
	case fileTooLarge:
		return fmt.Errorf("%w: %s", machines.ErrFileTooLarge, p)
	case fileNotReg:
		return fmt.Errorf("%w: %q is not a regular file", machines.ErrBadPath, p)
	default:
		return fmt.Errorf("gvisor: file %s: exit %d: %s", p, res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
}
