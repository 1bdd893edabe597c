package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The server runs on the host here: it only needs bash and a file system,
// and what it does inside a sandbox is the same (the gvisor package's tests
// drive it inside real sandboxes).

const testToken = "0123456789abcdef0123456789abcdef"

type fixture struct {
	client *Client
	url    string
	home   string
}

func start(t *testing.T) fixture {
	t.Helper()
	home := t.TempDir()
	srv, err := NewServer(ServerConfig{Token: testToken, TmpDir: t.TempDir(), Env: os.Environ(), Home: home, KillGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c := NewClient(strings.TrimPrefix(hs.URL, "http://"), testToken, time.Second)
	t.Cleanup(c.Close)
	return fixture{client: c, url: hs.URL, home: home}
}

func (f fixture) exec(t *testing.T, req ExecRequest) ExecResult {
	t.Helper()
	if req.TimeoutMillis == 0 {
		req.TimeoutMillis = 10000
	}
	res, err := f.client.Exec(t.Context(), req)
	if err != nil {
		t.Fatalf("Exec %q: %v", req.Command, err)
	}
	return res
}

func TestExec(t *testing.T) {
	f := start(t)
	other := t.TempDir()
	tests := []struct {
		name      string
		req       ExecRequest
		exit      int
		stdout    string
		stderr    string
		stdoutCut bool
		stderrCut bool
	}{
		{name: "output", req: ExecRequest{Command: "echo out; echo err >&2"}, stdout: "out\n", stderr: "err\n"},
		{name: "exit code", req: ExecRequest{Command: "exit 3"}, exit: 3},
		{name: "signal", req: ExecRequest{Command: "kill -9 $$"}, exit: 137},
		{name: "stdin", req: ExecRequest{Command: "tr a-z A-Z", Stdin: []byte("hello")}, stdout: "HELLO"},
		{name: "no stdin", req: ExecRequest{Command: "cat; echo done"}, stdout: "done\n"},
		{name: "env", req: ExecRequest{Command: `echo "$FOO"`, Env: []string{"FOO=bar baz"}}, stdout: "bar baz\n"},
		{name: "dir", req: ExecRequest{Command: "pwd", Dir: other}, stdout: other + "\n"},
		{name: "missing dir falls back to home", req: ExecRequest{Command: "pwd", Dir: "/nonexistent/dir"}, stdout: f.home + "\n"},
		{name: "default dir", req: ExecRequest{Command: "pwd"}, stdout: f.home + "\n"},
		{name: "binary", req: ExecRequest{Command: `printf '\x00\xff\xfe\x01'`}, stdout: "\x00\xff\xfe\x01"},
		{name: "truncated stdout", req: ExecRequest{Command: "head -c 5000 /dev/zero | tr '\\0' a", MaxOutput: 100},
			stdout: strings.Repeat("a", 100), stdoutCut: true},
		{name: "truncated stderr", req: ExecRequest{Command: "head -c 5000 /dev/zero | tr '\\0' b >&2; echo ok", MaxOutput: 10},
			stdout: "ok\n", stderr: strings.Repeat("b", 10), stderrCut: true},
		{name: "exactly the limit", req: ExecRequest{Command: "printf 0123456789", MaxOutput: 10}, stdout: "0123456789"},
		{name: "token not inherited", req: ExecRequest{Command: `echo "[${` + TokenEnv + `:-}]"`}, stdout: "[]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := f.exec(t, tc.req)
			if res.ExitCode != tc.exit || string(res.Stdout) != tc.stdout || string(res.Stderr) != tc.stderr ||
				res.StdoutTruncated != tc.stdoutCut || res.StderrTruncated != tc.stderrCut || res.TimedOut {
				t.Errorf("got exit %d stdout %q (cut %v) stderr %q (cut %v) timed out %v",
					res.ExitCode, res.Stdout, res.StdoutTruncated, res.Stderr, res.StderrTruncated, res.TimedOut)
			}
		})
	}
}

// gone reports whether pid has exited (absent, or a zombie nobody reaped
// yet).
func gone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

func TestTimeoutKillsTheProcessTree(t *testing.T) {
	f := start(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, command string
	}{
		{"background child", "sleep 60 & echo $! > " + dir + "/a; sleep 60"},
		{"ignores SIGTERM", "trap '' TERM; (trap '' TERM; sleep 60) & echo $! > " + dir + "/b; sleep 60; sleep 60"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			begin := time.Now()
			res := f.exec(t, ExecRequest{Command: tc.command, TimeoutMillis: 300})
			if !res.TimedOut || res.ExitCode != -1 {
				t.Fatalf("timed out %v exit %d", res.TimedOut, res.ExitCode)
			}
			if el := time.Since(begin); el > 5*time.Second {
				t.Errorf("took %v", el)
			}
			entries, _ := filepath.Glob(dir + "/*")
			for _, e := range entries {
				raw, _ := os.ReadFile(e)
				pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
				if err != nil {
					continue
				}
				deadline := time.Now().Add(3 * time.Second)
				for !gone(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if !gone(pid) {
					t.Errorf("background process %d survived the timeout", pid)
				}
			}
		})
	}
}

// A command that leaves a process running in the background returns when the
// command itself ends, even though the process still holds stdout.
func TestBackgroundProcessDoesNotHoldTheResult(t *testing.T) {
	f := start(t)
	begin := time.Now()
	res := f.exec(t, ExecRequest{Command: "(sleep 3; echo late) & echo now"})
	if string(res.Stdout) != "now\n" || res.ExitCode != 0 {
		t.Errorf("stdout %q exit %d", res.Stdout, res.ExitCode)
	}
	if el := time.Since(begin); el > 2*time.Second {
		t.Errorf("waited %v for the background process", el)
	}
}

func TestConcurrentCommands(t *testing.T) {
	f := start(t)
	const n = 8
	begin := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			res, err := f.client.Exec(t.Context(), ExecRequest{Command: fmt.Sprintf("sleep 0.5; echo %d", i), TimeoutMillis: 10000})
			if err == nil && string(res.Stdout) != fmt.Sprintf("%d\n", i) {
				err = fmt.Errorf("command %d: stdout %q", i, res.Stdout)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if el := time.Since(begin); el > 3*time.Second {
		t.Errorf("%d concurrent half-second commands took %v", n, el)
	}
}

func TestAuthentication(t *testing.T) {
	f := start(t)
	for _, tc := range []struct {
		name, header string
	}{
		{"none", ""},
		{"wrong", "Bearer " + strings.Repeat("x", len(testToken))},
		{"prefix", "Bearer " + testToken[:16]},
		{"not bearer", testToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, target := range []struct{ method, path, body string }{
				{"GET", "/v1/ping", ""},
				{"POST", "/v1/exec", `{"command":"touch ` + f.home + `/pwned"}`},
				{"GET", "/v1/file?path=/etc/hostname", ""},
				{"PUT", "/v1/file?path=" + f.home + "/pwned", "x"},
			} {
				req, _ := http.NewRequest(target.method, f.url+target.path, strings.NewReader(target.body))
				if tc.header != "" {
					req.Header.Set("Authorization", tc.header)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					t.Errorf("%s %s: %d, want 401", target.method, target.path, resp.StatusCode)
				}
			}
			if _, err := os.Stat(f.home + "/pwned"); err == nil {
				t.Error("an unauthenticated request had an effect")
			}
		})
	}
	bad := NewClient(strings.TrimPrefix(f.url, "http://"), "wrong-token-wrong-token", time.Second)
	defer bad.Close()
	var ae *Error
	if err := bad.Ping(t.Context()); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Errorf("client with a wrong token: %v", err)
	}
	if err := f.client.Ping(t.Context()); err != nil {
		t.Errorf("right token: %v", err)
	}
	if _, err := NewServer(ServerConfig{Token: "short"}); err == nil {
		t.Error("a short token was accepted")
	}
}

func TestFiles(t *testing.T) {
	f := start(t)
	ctx := t.Context()
	dir := t.TempDir()
	bin := []byte{0, 1, 2, 0xff, 0xfe}
	if err := f.client.WriteFile(ctx, dir+"/a/b/c.bin", bin, 0o640); err != nil {
		t.Fatal(err)
	}
	got, err := f.client.ReadFile(ctx, dir+"/a/b/c.bin", 100)
	if err != nil || !bytes.Equal(got, bin) {
		t.Fatalf("read back %q, %v", got, err)
	}
	if st, err := os.Stat(dir + "/a/b/c.bin"); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}
	if err := f.client.WriteFile(ctx, dir+"/a/b/c.bin", []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.client.ReadFile(ctx, dir+"/a/b/c.bin", 100); string(got) != "new" {
		t.Errorf("after overwrite: %q", got)
	}
	if err := f.client.WriteFile(ctx, dir+"/empty", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := f.client.ReadFile(ctx, dir+"/empty", 100); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q %v", got, err)
	}
	if err := os.Symlink("/proc/self", dir+"/proclink"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+"/a", dir+"/alink"); err != nil {
		t.Fatal(err)
	}
	if got, err := f.client.ReadFile(ctx, dir+"/alink/b/c.bin", 100); err != nil || string(got) != "new" {
		t.Errorf("through a symlink inside: %q %v", got, err)
	}
	if entries, _ := os.ReadDir(dir + "/a/b"); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	for _, tc := range []struct {
		name  string
		write bool
		path  string
		max   int64
		code  string
	}{
		{"missing", false, dir + "/nope", 10, CodeNotFound},
		{"missing parent", false, dir + "/nope/x", 10, CodeNotFound},
		{"directory", false, dir + "/a", 10, CodeNotRegular},
		{"too large", false, dir + "/a/b/c.bin", 2, CodeTooLarge},
		{"relative", false, "etc/passwd", 10, CodeBadPath},
		{"proc", false, "/proc/self/environ", 10, CodeBadPath},
		{"dotdot into proc", false, dir + "/../../../../../../proc/self/environ", 10, CodeBadPath},
		{"symlink into proc", false, dir + "/proclink/environ", 10, CodeBadPath},
		{"write a directory", true, dir + "/a", 0, CodeNotRegular},
		{"write relative", true, "x", 0, CodeBadPath},
		{"write sys", true, "/sys/kernel/x", 0, CodeBadPath},
		{"write through a symlink into proc", true, dir + "/proclink/x", 0, CodeBadPath},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.write {
				err = f.client.WriteFile(ctx, tc.path, []byte("x"), 0o600)
			} else {
				_, err = f.client.ReadFile(ctx, tc.path, tc.max)
			}
			var ae *Error
			if !errors.As(err, &ae) || ae.Code != tc.code {
				t.Errorf("got %v, want code %s", err, tc.code)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := NewClient(addr, testToken, 50*time.Millisecond)
	defer c.Close()
	begin := time.Now()
	err = c.Ping(t.Context())
	if !IsUnreachable(err) {
		t.Errorf("closed port: %v is not unreachable", err)
	}
	if el := time.Since(begin); el < 50*time.Millisecond || el > 2*time.Second {
		t.Errorf("gave up after %v, want the dial wait", el)
	}
	f := start(t)
	bad := NewClient(strings.TrimPrefix(f.url, "http://"), "wrong-token-wrong-token", time.Second)
	defer bad.Close()
	if err := bad.Ping(t.Context()); err == nil || IsUnreachable(err) {
		t.Errorf("refused token reported as %v", err)
	}
}

// A client retries a refused connection until the agent listens.
func TestWaitsForAgent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv, err := NewServer(ServerConfig{Token: testToken, TmpDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return
		}
		hs := &http.Server{Handler: srv}
		go func() { <-t.Context().Done(); hs.Close() }()
		_ = hs.Serve(ln)
	}()
	c := NewClient(addr, testToken, 3*time.Second)
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		t.Errorf("ping while the agent starts: %v", err)
	}
}

func TestInstall(t *testing.T) {
	img := t.TempDir()
	if got := InImage(img); got != "" {
		t.Errorf("empty image has agent %q", got)
	}
	bin1, bin2 := filepath.Join(t.TempDir(), "a1"), filepath.Join(t.TempDir(), "a2")
	_ = os.WriteFile(bin1, []byte("#!/bin/sh\necho 1\n"), 0o755)
	_ = os.WriteFile(bin2, []byte("#!/bin/sh\necho 2\n"), 0o755)
	p1, err := Install(img, bin1)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := Install(img, bin1); err != nil || again != p1 {
		t.Errorf("second install: %q %v, want %q", again, err, p1)
	}
	if got := InImage(img); got != p1 || !strings.HasPrefix(p1, "/.agentsvc/agent-") {
		t.Errorf("InImage %q, Install %q", got, p1)
	}
	p2, err := Install(img, bin2)
	if err != nil || p2 == p1 || InImage(img) != p2 {
		t.Errorf("newer agent: %q %v (old %q, current %q)", p2, err, p1, InImage(img))
	}
	// Sandboxes that run the old binary keep it.
	if data, err := os.ReadFile(filepath.Join(img, p1)); err != nil || !strings.Contains(string(data), "echo 1") {
		t.Errorf("old binary changed: %q %v", data, err)
	}
}
