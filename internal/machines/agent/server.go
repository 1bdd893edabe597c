package agent

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// maxRequestBytes bounds a request body: a file write (the service allows 8
// MiB) or an exec request with its stdin, base64-encoded in JSON.
const maxRequestBytes = 64 << 20

// Server serves the protocol. Create it with NewServer.
type Server struct {
	token []byte
	// tmpDir holds the unlinked files that take a command's output and
	// stdin (a tmpfs in the sandbox).
	tmpDir string
	// shell runs commands; /bin/bash in a sandbox.
	shell string
	// env is the base environment of every command.
	env []string
	// home is the fallback working directory.
	home string
	// killGrace separates SIGTERM and SIGKILL at a timeout.
	killGrace time.Duration
	mux       *http.ServeMux
}

// ServerConfig configures a Server.
type ServerConfig struct {
	// Token authenticates the host; required.
	Token string
	// TmpDir holds output files; default os.TempDir().
	TmpDir string
	// Shell runs commands as Shell -c; default /bin/bash.
	Shell string
	// Env is every command's base environment; default none.
	Env []string
	// Home is the working directory when a request names none or one that
	// does not exist; default /root.
	Home string
	// KillGrace is the time between SIGTERM and SIGKILL at a timeout;
	// default KillGrace.
	KillGrace time.Duration
}

// NewServer returns a Server for cfg.
func NewServer(cfg ServerConfig) (*Server, error) {
	if len(cfg.Token) < 16 {
		return nil, errors.New("agent: a token of at least 16 characters is required")
	}
	s := &Server{token: []byte(cfg.Token), tmpDir: cfg.TmpDir, shell: cfg.Shell, env: cfg.Env, home: cfg.Home, killGrace: cfg.KillGrace}
	if s.killGrace <= 0 {
		s.killGrace = KillGrace
	}
	if s.tmpDir == "" {
		s.tmpDir = os.TempDir()
	}
	if s.shell == "" {
		s.shell = "/bin/bash"
	}
	if s.home == "" {
		s.home = "/root"
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /v1/ping", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s.mux.HandleFunc("POST /v1/exec", s.handleExec)
	s.mux.HandleFunc("GET /v1/file", s.handleRead)
	s.mux.HandleFunc("PUT /v1/file", s.handleWrite)
	return s, nil
}

// ServeHTTP checks the token, then dispatches.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), s.token) != 1 {
		writeError(w, &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "missing or wrong token"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxRequestBytes)
	s.mux.ServeHTTP(w, r)
}

func writeError(w http.ResponseWriter, e *Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(e)
}

func (s *Server) handleExec(w http.ResponseWriter, r *http.Request) {
	var req ExecRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, &Error{Status: http.StatusBadRequest, Code: "bad_request", Message: err.Error()})
		return
	}
	res, err := s.Exec(req)
	if err != nil {
		writeError(w, &Error{Status: http.StatusInternalServerError, Code: CodeFailed, Message: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(res)
}

// Exec runs req and waits for the command, not for what it left running
// in the background.
//
// The command runs in a process group of its own; at the deadline the group
// gets SIGTERM and, KillGrace later, SIGKILL, so its background children die
// with it (one that called setsid escapes; the sandbox's limits still bound
// it). Output goes to unlinked files rather than pipes: a background process
// that inherited stdout can keep writing without blocking the result or
// dying of SIGPIPE once the command is done.
//
// The request's context is deliberately not used: a host connection broken
// by a checkpoint must not kill a command that is still meant to finish after
// the restore.
func (s *Server) Exec(req ExecRequest) (ExecResult, error) {
	var res ExecResult
	timeout := time.Duration(req.TimeoutMillis) * time.Millisecond
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	limit := req.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	stdout, err := s.tmpFile(nil)
	if err != nil {
		return res, err
	}
	defer stdout.Close()
	stderr, err := s.tmpFile(nil)
	if err != nil {
		return res, err
	}
	defer stderr.Close()
	var stdin *os.File
	if len(req.Stdin) > 0 {
		if stdin, err = s.tmpFile(req.Stdin); err != nil {
			return res, err
		}
		defer stdin.Close()
	}

	cmd := exec.Command(s.shell, "-c", req.Command)
	cmd.Dir = s.home
	if req.Dir != "" {
		if st, err := os.Stat(req.Dir); err == nil && st.IsDir() {
			cmd.Dir = req.Dir
		}
	}
	cmd.Env = append(append([]string{}, s.env...), req.Env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if stdin != nil {
		cmd.Stdin = stdin
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("agent: starting bash: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	pgid := cmd.Process.Pid
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err = <-done:
	case <-timer.C:
		res.TimedOut = true
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case err = <-done:
		case <-time.After(s.killGrace):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			err = <-done
		}
		// Children that ignored SIGTERM must not outlive the timeout.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	res.DurationMillis = time.Since(start).Milliseconds()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		}
	default:
		return res, fmt.Errorf("agent: waiting for bash: %w", err)
	}
	if res.TimedOut {
		res.ExitCode = -1
	}
	if res.Stdout, res.StdoutTruncated, err = readBounded(stdout, limit); err != nil {
		return res, err
	}
	if res.Stderr, res.StderrTruncated, err = readBounded(stderr, limit); err != nil {
		return res, err
	}
	return res, nil
}

// tmpFile creates an unlinked file holding data, positioned at its start.
func (s *Server) tmpFile(data []byte) (*os.File, error) {
	f, err := os.CreateTemp(s.tmpDir, ".agent-*")
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	_ = os.Remove(f.Name())
	if len(data) > 0 {
		if _, err := f.Write(data); err == nil {
			_, err = f.Seek(0, io.SeekStart)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("agent: stdin: %w", err)
		}
	}
	return f, nil
}

// readBounded returns the first limit bytes of f and whether there was more.
// ReadAt, because a background process may still be appending.
func readBounded(f *os.File, limit int) ([]byte, bool, error) {
	buf := make([]byte, limit+1)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, fmt.Errorf("agent: reading output: %w", err)
	}
	if n > limit {
		return buf[:limit], true, nil
	}
	return buf[:n], false, nil
}

// kernelPath reports whether p names the kernel's interfaces, which the file
// operations refuse before and after resolving symlinks.
func kernelPath(p string) bool {
	for _, pre := range []string{"/proc", "/sys", "/dev"} {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

// cleanPath checks a requested path before it is resolved.
func cleanPath(p string) (string, *Error) {
	if p == "" || !strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return "", &Error{Status: http.StatusBadRequest, Code: CodeBadPath, Message: fmt.Sprintf("%q must be absolute", p)}
	}
	c := path.Clean(p)
	if kernelPath(c) {
		return "", &Error{Status: http.StatusBadRequest, Code: CodeBadPath, Message: fmt.Sprintf("%q is under /proc, /sys or /dev", p)}
	}
	return c, nil
}

// resolve follows symlinks in p. With missingOK the part of p that does not
// exist yet is kept as written (realpath -m); otherwise p must exist.
func resolve(p string, missingOK bool) (string, *Error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if !missingOK || !errors.Is(err, fs.ErrNotExist) {
			return "", fileError(p, err)
		}
		parent, perr := resolve(filepath.Dir(p), true)
		if perr != nil {
			return "", perr
		}
		real = filepath.Join(parent, filepath.Base(p))
	}
	if kernelPath(real) {
		return "", &Error{Status: http.StatusBadRequest, Code: CodeBadPath, Message: fmt.Sprintf("%q resolves under /proc, /sys or /dev", p)}
	}
	return real, nil
}

func fileError(p string, err error) *Error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: p + ": no such file"}
	}
	return &Error{Status: http.StatusInternalServerError, Code: CodeFailed, Message: err.Error()}
}

func (s *Server) handleRead(w http.ResponseWriter, r *http.Request) {
	p, e := cleanPath(r.URL.Query().Get("path"))
	if e != nil {
		writeError(w, e)
		return
	}
	limit, err := strconv.ParseInt(r.URL.Query().Get("max"), 10, 64)
	if err != nil || limit <= 0 {
		limit = DefaultMaxOutput
	}
	real, e := resolve(p, false)
	if e != nil {
		writeError(w, e)
		return
	}
	f, err := os.Open(real)
	if err != nil {
		writeError(w, fileError(p, err))
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		writeError(w, fileError(p, err))
		return
	}
	if !st.Mode().IsRegular() {
		writeError(w, &Error{Status: http.StatusUnprocessableEntity, Code: CodeNotRegular, Message: p + " is not a regular file"})
		return
	}
	// Read one byte past the limit: the size from stat can be stale.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		writeError(w, fileError(p, err))
		return
	}
	if int64(len(data)) > limit {
		writeError(w, &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: fmt.Sprintf("%s is larger than %d bytes", p, limit)})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(data)
}

// handleWrite writes the body under a temporary name and renames it, so
// readers never see half a file; parents are created.
func (s *Server) handleWrite(w http.ResponseWriter, r *http.Request) {
	p, e := cleanPath(r.URL.Query().Get("path"))
	if e != nil {
		writeError(w, e)
		return
	}
	if p == "/" {
		writeError(w, &Error{Status: http.StatusUnprocessableEntity, Code: CodeNotRegular, Message: "/ is a directory"})
		return
	}
	mode := uint64(0o600)
	if m := r.URL.Query().Get("mode"); m != "" {
		var err error
		if mode, err = strconv.ParseUint(m, 8, 32); err != nil || mode > 0o777 {
			writeError(w, &Error{Status: http.StatusBadRequest, Code: "bad_request", Message: "mode must be octal permission bits"})
			return
		}
	}
	real, e := resolve(p, true)
	if e != nil {
		writeError(w, e)
		return
	}
	if st, err := os.Stat(real); err == nil && st.IsDir() {
		writeError(w, &Error{Status: http.StatusUnprocessableEntity, Code: CodeNotRegular, Message: p + " is a directory"})
		return
	}
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		writeError(w, fileError(p, err))
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), filepath.Base(real)+".agentsvc-*")
	if err != nil {
		writeError(w, fileError(p, err))
		return
	}
	_, err = io.Copy(tmp, r.Body)
	if err == nil {
		err = tmp.Chmod(os.FileMode(mode))
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), real)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: err.Error()})
			return
		}
		writeError(w, fileError(p, err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
