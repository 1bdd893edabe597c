package machines_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
	"github.com/agentsvc/agentsvc/internal/machines/image"
)

// The tests drive real gVisor sandboxes through the REST API of an
// in-process server. They need root, runsc and the base image (make
// machines-setup); only a missing runsc makes them skip. The image is built
// on first use into the shared test data dir, as the gvisor tests do.
func needSandboxes(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("runsc"); err != nil {
		t.Skip("runsc not installed: run `make machines-setup` to run the machine tests")
	}
	if os.Geteuid() != 0 {
		t.Fatal("the machine tests need root (network namespaces, iptables, cgroups)")
	}
	if _, ok := image.Ready(apptest.TestDataDir(), "bookworm", image.Base); !ok {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		if _, err := image.Build(ctx, image.Options{DataDir: apptest.TestDataDir(), Suite: "bookworm"}); err != nil {
			t.Fatalf("building the test image: %v", err)
		}
	}
	installAgent.Do(func() {
		var dirs []string
		for _, v := range []image.Variant{image.Base, image.Desktop} {
			if dir, ok := image.Ready(apptest.TestDataDir(), "bookworm", v); ok {
				dirs = append(dirs, dir)
			}
		}
		installErr = agent.EnsureInstalled(context.Background(), dirs...)
	})
	if installErr != nil {
		t.Fatalf("installing the agent into the test images: %v", installErr)
	}
}

// The agent is built and installed into the test images once per test
// binary, as scripts/ensure-image.sh does.
var (
	installAgent sync.Once
	installErr   error
)

type machine struct {
	ID                 string     `json:"id"`
	Name               string     `json:"name"`
	State              string     `json:"state"`
	Size               string     `json:"size"`
	Image              string     `json:"image"`
	CPUs               float64    `json:"cpus"`
	MemoryBytes        int64      `json:"memory_bytes"`
	ChargedTimeSeconds int64      `json:"charged_time_seconds"`
	AutoStopAt         *time.Time `json:"auto_stop_at"`
	StopReason         string     `json:"stop_reason"`
	ForkedFrom         string     `json:"forked_from"`
}

type runResult struct {
	ExitCode        int    `json:"exit_code"`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	StdoutEncoding  string `json:"stdout_encoding"`
	StdoutTruncated bool   `json:"stdout_truncated"`
	TimedOut        bool   `json:"timed_out"`
	DurationMS      int64  `json:"duration_ms"`
}

// client wraps an agent's calls.
type client struct {
	t     *testing.T
	env   *apptest.Env
	token string
}

func (c client) create(body map[string]any) machine {
	c.t.Helper()
	var m machine
	c.env.Must(201, c.env.Do("POST", "/api/v1/machines", c.token, body)).Decode(c.t, &m)
	return m
}

func (c client) get(id string) machine {
	c.t.Helper()
	var m machine
	c.env.Must(200, c.env.Do("GET", "/api/v1/machines/"+id, c.token, nil)).Decode(c.t, &m)
	return m
}

func (c client) post(id, action string, want int) machine {
	c.t.Helper()
	var m machine
	r := c.env.Must(want, c.env.Do("POST", "/api/v1/machines/"+id+"/"+action, c.token, nil))
	if want == 200 {
		r.Decode(c.t, &m)
	}
	return m
}

func (c client) run(id, command string, timeout int) runResult {
	c.t.Helper()
	body := map[string]any{"command": command}
	if timeout > 0 {
		body["timeout_seconds"] = timeout
	}
	var r runResult
	c.env.Must(200, c.env.Do("POST", "/api/v1/machines/"+id+"/run", c.token, body)).Decode(c.t, &r)
	return r
}

func (c client) sh(id, command string) string {
	c.t.Helper()
	r := c.run(id, command, 20)
	if r.ExitCode != 0 {
		c.t.Fatalf("%q: exit %d, stderr %q", command, r.ExitCode, r.Stderr)
	}
	return r.Stdout
}

func (c client) del(id string) {
	c.t.Helper()
	c.env.Must(200, c.env.Do("DELETE", "/api/v1/machines/"+id+"?confirm=true", c.token, nil))
}

// viaProxy fetches a port URL through the server's listener with the URL's
// Host header, as a browser resolving *.machines.localhost would.
func viaProxy(t *testing.T, env *apptest.Env, portURL, path string) (int, string) {
	t.Helper()
	u, err := url.Parse(portURL)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", env.BaseURL+path, nil)
	req.Host = u.Host
	resp, err := env.Client.Do(req)
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func counter(t *testing.T, c client, id string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(c.sh(id, readCounter("/root/counter"))))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readCounter reads a counter file that a background loop rewrites with
// `echo $i > file`: a read may land between the truncation and the write,
// so an empty read is retried.
func readCounter(path string) string {
	return "for i in 1 2 3 4 5 6 7 8 9 10; do v=$(cat " + path + " 2>/dev/null); [ -n \"$v\" ] && break; sleep 0.05; done; echo ${v:-0}"
}

// waitCounterAbove waits until the background counter of a machine passes n.
func waitCounterAbove(t *testing.T, c client, id string, n int) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		v := counter(t, c, id)
		if v > n {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("the background process of %s did not continue: counter stays at %d", id, v)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// TestMachineLifecycle: create → run → files → port proxy → stop → resume
// with a background process still running → fork → delete, with the bad
// input and invalid transitions of each step, on every covered database.
func TestMachineLifecycle(t *testing.T) {
	needSandboxes(t)
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := client{t, env, env.NewAgent("mach-a", auth.ComputeRead, auth.ComputeRun, auth.ComputeAdmin).Token}
		b := client{t, env, env.NewAgent("mach-b", auth.ComputeRead, auth.ComputeRun, auth.ComputeAdmin).Token}

		// Bad create input: clear errors, nothing created.
		for _, tc := range []struct {
			body   map[string]any
			status int
			code   string
		}{
			{map[string]any{"size": "huge"}, 400, "invalid_request"},
			{map[string]any{"ttl_seconds": -5}, 400, "invalid_request"},
			{map[string]any{"ttl_seconds": 1 << 40}, 400, "invalid_request"},
			{map[string]any{"image": "windows"}, 400, "invalid_request"},
			{map[string]any{"name": strings.Repeat("n", 101)}, 400, "invalid_request"},
			{map[string]any{"fork_from": "mch_bogus"}, 404, "not_found"},
			{map[string]any{"fork_from": "mch_00000000000000000000000000"}, 404, "not_found"},
			{map[string]any{"inject_credential_ids": []string{"crd_x"}}, 403, "forbidden"}, // the token lacks vault:use
		} {
			if r := env.Do("POST", "/api/v1/machines", a.token, tc.body); r.Status != tc.status || r.ErrorCode() != tc.code {
				t.Errorf("create %v: %d %s, want %d %s", tc.body, r.Status, r.Body, tc.status, tc.code)
			}
		}

		// Create, idempotently.
		body := map[string]any{"name": "dev box", "ttl_seconds": 600, "idempotency_key": "create-1"}
		r := env.Must(201, env.Do("POST", "/api/v1/machines", a.token, body))
		var m machine
		r.Decode(t, &m)
		if m.State != "running" || m.Name != "dev box" || m.Size != "small" || m.Image != "base" || m.CPUs != 1 || m.MemoryBytes != 1<<30 {
			t.Fatalf("created: %+v", m)
		}
		if m.AutoStopAt == nil || time.Until(*m.AutoStopAt) < 590*time.Second || time.Until(*m.AutoStopAt) > 601*time.Second {
			t.Errorf("auto_stop_at %v, want about now+600s", m.AutoStopAt)
		}
		r2 := env.Must(201, env.Do("POST", "/api/v1/machines", a.token, body))
		if r2.Header.Get("Idempotent-Replayed") != "true" || !strings.Contains(string(r2.Body), m.ID) {
			t.Errorf("retry with the same idempotency_key: %s %v", r2.Body, r2.Header)
		}
		if c := env.Do("POST", "/api/v1/machines", a.token, map[string]any{"name": "other", "idempotency_key": "create-1"}); c.Status != 409 || c.ErrorCode() != "idempotency_conflict" {
			t.Errorf("same key, other body: %d %s", c.Status, c.Body)
		}
		var list struct{ Data []machine }
		env.Must(200, env.Do("GET", "/api/v1/machines", a.token, nil)).Decode(t, &list)
		if len(list.Data) != 1 || list.Data[0].ID != m.ID {
			t.Errorf("list after an idempotent retry: %+v", list.Data)
		}

		t.Run("run", func(t *testing.T) {
			a := client{t, env, a.token}
			res := a.run(m.ID, "echo hi; echo err >&2; exit 3", 0)
			if res.ExitCode != 3 || res.Stdout != "hi\n" || res.Stderr != "err\n" || res.StdoutEncoding != "text" || res.TimedOut {
				t.Errorf("run: %+v", res)
			}
			if res := a.run(m.ID, `printf '\xff\xfe\x00A'`, 0); res.StdoutEncoding != "base64" || res.Stdout != base64.StdEncoding.EncodeToString([]byte{0xff, 0xfe, 0, 'A'}) {
				t.Errorf("binary output: %+v", res)
			}
			start := time.Now()
			if res := a.run(m.ID, "sleep 30", 1); !res.TimedOut || res.ExitCode != -1 || time.Since(start) > 10*time.Second {
				t.Errorf("timeout: %+v after %v", res, time.Since(start))
			}
			if res := a.run(m.ID, "head -c 3000000 /dev/zero | tr '\\0' a", 0); !res.StdoutTruncated || len(res.Stdout) != 1<<20 || res.ExitCode != 0 {
				t.Errorf("huge output: truncated %v, %d bytes, exit %d", res.StdoutTruncated, len(res.Stdout), res.ExitCode)
			}
			// Concurrent runs on one machine.
			var wg sync.WaitGroup
			outs := make([]string, 3)
			start = time.Now()
			for i := range outs {
				wg.Go(func() {
					resp := env.Do("POST", "/api/v1/machines/"+m.ID+"/run", a.token, map[string]any{"command": fmt.Sprintf("sleep 1; echo %d", i)})
					outs[i] = resp.JSON()["stdout"].(string)
				})
			}
			wg.Wait()
			if took := time.Since(start); took > 2500*time.Millisecond {
				t.Errorf("3 concurrent 1 s commands took %v", took)
			}
			for i, o := range outs {
				if o != fmt.Sprintf("%d\n", i) {
					t.Errorf("concurrent run %d: %q", i, o)
				}
			}
			for _, tc := range []struct {
				name string
				body any
			}{
				{"no command", map[string]any{}},
				{"empty command", map[string]any{"command": ""}},
				{"timeout 0 is default but negative is not", map[string]any{"command": "true", "timeout_seconds": -1}},
				{"timeout too long", map[string]any{"command": "true", "timeout_seconds": 7200}},
			} {
				if r := env.Do("POST", "/api/v1/machines/"+m.ID+"/run", a.token, tc.body); r.Status != 400 || r.ErrorCode() != "invalid_request" {
					t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
				}
			}
		})

		t.Run("files", func(t *testing.T) {
			put := func(path string, data []byte) apptest.Response {
				req, _ := http.NewRequest("PUT", env.BaseURL+"/api/v1/machines/"+m.ID+"/files?path="+url.QueryEscape(path), strings.NewReader(string(data)))
				req.Header.Set("Authorization", "Bearer "+a.token)
				req.Header.Set("Content-Type", "application/octet-stream")
				return env.Send(req)
			}
			get := func(path string) apptest.Response {
				return env.Do("GET", "/api/v1/machines/"+m.ID+"/files?path="+url.QueryEscape(path), a.token, nil)
			}
			env.Must(200, put("/root/www/sub/index.html", []byte("hello from the machine\n")))
			f := env.Must(200, get("/root/www/sub/index.html")).JSON()
			if f["encoding"] != "text" || f["content"] != "hello from the machine\n" || f["size"].(float64) != 23 {
				t.Errorf("read back: %v", f)
			}
			if got := a.sh(m.ID, "cat /root/www/sub/index.html"); got != "hello from the machine\n" {
				t.Errorf("the command sees %q", got)
			}
			bin := []byte{0, 1, 2, 0xff}
			env.Must(200, put("/tmp/bin", bin))
			f = env.Must(200, get("/tmp/bin")).JSON()
			if f["encoding"] != "base64" || f["content"] != base64.StdEncoding.EncodeToString(bin) {
				t.Errorf("binary read back: %v", f)
			}
			for _, p := range []string{"/root/../etc/passwd", "root/x", "/proc/self/environ", "/sys/kernel", "/dev/null", "/root/./x", ""} {
				if r := get(p); r.Status != 400 {
					t.Errorf("GET %q: %d %s", p, r.Status, r.Body)
				}
				if r := put(p, []byte("x")); r.Status != 400 {
					t.Errorf("PUT %q: %d %s", p, r.Status, r.Body)
				}
			}
			if r := get("/root/missing"); r.Status != 404 {
				t.Errorf("missing file: %d %s", r.Status, r.Body)
			}
			// A symlink to the host's idea of a path resolves inside the machine.
			a.sh(m.ID, "ln -sf /etc/hostname /root/link")
			if r := get("/root/link"); r.Status != 200 {
				t.Errorf("symlink inside the machine: %d %s", r.Status, r.Body)
			}
		})

		// A web server and a background counter that must survive stop/resume.
		a.sh(m.ID, "cd /root/www/sub && setsid nohup python3 -m http.server 8000 >/dev/null 2>&1 < /dev/null &")
		a.sh(m.ID, "setsid nohup bash -c 'i=0; while true; do i=$((i+1)); echo $i > /root/counter; sleep 0.1; done' >/dev/null 2>&1 < /dev/null &")
		a.sh(m.ID, "for i in $(seq 100); do curl -fs localhost:8000/ >/dev/null && exit 0; sleep 0.1; done; exit 1")
		var port struct {
			Port int
			URL  string
		}
		env.Must(200, env.Do("POST", "/api/v1/machines/"+m.ID+"/ports", a.token, map[string]any{"port": 8000})).Decode(t, &port)
		_, httpPort, _ := strings.Cut(strings.TrimPrefix(env.BaseURL, "http://"), ":")
		if want := fmt.Sprintf("http://8000-%s.machines.localhost:%s", m.ID, httpPort); port.URL != want {
			t.Errorf("port url %q, want %q", port.URL, want)
		}
		t.Run("ports", func(t *testing.T) {
			if st, body := viaProxy(t, env, port.URL, "/index.html"); st != 200 || body != "hello from the machine\n" {
				t.Errorf("through the proxy: %d %q", st, body)
			}
			for _, p := range []any{0, 65536, -1, "x", agent.Port} {
				if r := env.Do("POST", "/api/v1/machines/"+m.ID+"/ports", a.token, map[string]any{"port": p}); r.Status != 400 {
					t.Errorf("port %v: %d %s", p, r.Status, r.Body)
				}
			}
			if st, _ := viaProxy(t, env, strings.Replace(port.URL, "8000-", "9000-", 1), "/"); st != 404 {
				t.Errorf("a port never exposed: %d", st)
			}
			if st, _ := viaProxy(t, env, strings.Replace(port.URL, m.ID, "mch_00000000000000000000000000", 1), "/"); st != 404 {
				t.Errorf("an unknown machine: %d", st)
			}
		})

		t.Run("another agent", func(t *testing.T) {
			for _, c := range []struct {
				method, path string
				body         any
			}{
				{"GET", "/api/v1/machines/" + m.ID, nil},
				{"POST", "/api/v1/machines/" + m.ID + "/run", map[string]any{"command": "id"}},
				{"POST", "/api/v1/machines/" + m.ID + "/stop", nil},
				{"POST", "/api/v1/machines/" + m.ID + "/ports", map[string]any{"port": 8000}},
				{"GET", "/api/v1/machines/" + m.ID + "/files?path=/etc/hostname", nil},
				{"DELETE", "/api/v1/machines/" + m.ID + "?confirm=true", nil},
				{"POST", "/api/v1/machines", map[string]any{"fork_from": m.ID}},
			} {
				if r := env.Do(c.method, c.path, b.token, c.body); r.Status != 404 {
					t.Errorf("%s %s as another agent: %d %s", c.method, c.path, r.Status, r.Body)
				}
			}
			env.Must(200, env.Do("GET", "/api/v1/machines", b.token, nil)).Decode(t, &list)
			if len(list.Data) != 0 {
				t.Errorf("another agent lists %+v", list.Data)
			}
		})

		// Stop: snapshot, no billing, invalid transitions.
		before := counter(t, a, m.ID)
		stopped := a.post(m.ID, "stop", 200)
		if stopped.State != "stopped" || stopped.AutoStopAt != nil || stopped.StopReason != "user" || stopped.ChargedTimeSeconds < 1 {
			t.Fatalf("stopped: %+v", stopped)
		}
		for _, action := range []string{"stop"} {
			if r := env.Do("POST", "/api/v1/machines/"+m.ID+"/"+action, a.token, nil); r.Status != 409 || r.ErrorCode() != "invalid_state" {
				t.Errorf("%s on a stopped machine: %d %s", action, r.Status, r.Body)
			}
		}
		if r := env.Do("POST", "/api/v1/machines/"+m.ID+"/run", a.token, map[string]any{"command": "true"}); r.Status != 409 || r.ErrorCode() != "invalid_state" {
			t.Errorf("run on a stopped machine: %d %s", r.Status, r.Body)
		}
		if r := env.Do("GET", "/api/v1/machines/"+m.ID+"/files?path=/etc/hostname", a.token, nil); r.Status != 409 {
			t.Errorf("files of a stopped machine: %d %s", r.Status, r.Body)
		}
		if st, _ := viaProxy(t, env, port.URL, "/"); st != 503 {
			t.Errorf("proxy to a stopped machine: %d", st)
		}
		time.Sleep(1100 * time.Millisecond)
		if got := a.get(m.ID).ChargedTimeSeconds; got != stopped.ChargedTimeSeconds {
			t.Errorf("billing went on while stopped: %d, then %d", stopped.ChargedTimeSeconds, got)
		}

		// Resume: processes continue, the URL works again.
		resumed := a.post(m.ID, "resume", 200)
		if resumed.State != "running" || resumed.AutoStopAt == nil || resumed.StopReason != "" {
			t.Fatalf("resumed: %+v", resumed)
		}
		if r := env.Do("POST", "/api/v1/machines/"+m.ID+"/resume", a.token, nil); r.Status != 409 || r.ErrorCode() != "invalid_state" {
			t.Errorf("resume of a running machine: %d %s", r.Status, r.Body)
		}
		waitCounterAbove(t, a, m.ID, before)
		if st, body := viaProxy(t, env, port.URL, "/index.html"); st != 200 || body != "hello from the machine\n" {
			t.Errorf("the port URL after resume: %d %q", st, body)
		}

		// Fork the running machine: the fork has the files and processes,
		// the source goes on.
		fork := a.create(map[string]any{"fork_from": m.ID, "name": "fork"})
		if fork.State != "running" || fork.ForkedFrom != m.ID || fork.ID == m.ID {
			t.Fatalf("fork: %+v", fork)
		}
		if got := a.sh(fork.ID, "cat /root/www/sub/index.html"); got != "hello from the machine\n" {
			t.Errorf("the fork's file: %q", got)
		}
		c := counter(t, a, fork.ID)
		waitCounterAbove(t, a, fork.ID, c)
		waitCounterAbove(t, a, m.ID, counter(t, a, m.ID))
		a.sh(fork.ID, "echo fork > /root/who")
		if r := a.run(m.ID, "cat /root/who", 0); r.ExitCode == 0 {
			t.Errorf("the fork's write is visible in the source")
		}
		// A fork of a stopped machine starts from its last snapshot.
		a.post(fork.ID, "stop", 200)
		fork2 := a.create(map[string]any{"fork_from": fork.ID, "size": "medium"})
		if got := a.sh(fork2.ID, "cat /root/who"); got != "fork\n" || fork2.Size != "medium" {
			t.Errorf("fork of a stopped fork: %q, size %s", got, fork2.Size)
		}

		// Delete: confirmation, then 404 everywhere.
		if r := env.Do("DELETE", "/api/v1/machines/"+fork.ID, a.token, nil); r.Status != 400 || !strings.Contains(string(r.Body), "confirm=true") {
			t.Errorf("delete without confirm: %d %s", r.Status, r.Body)
		}
		var gone machine
		env.Must(200, env.Do("DELETE", "/api/v1/machines/"+fork.ID+"?confirm=true", a.token, nil)).Decode(t, &gone)
		if gone.State != "deleted" {
			t.Errorf("delete answered %+v", gone)
		}
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/api/v1/machines/" + fork.ID, nil},
			{"POST", "/api/v1/machines/" + fork.ID + "/run", map[string]any{"command": "true"}},
			{"POST", "/api/v1/machines/" + fork.ID + "/resume", nil},
			{"DELETE", "/api/v1/machines/" + fork.ID + "?confirm=true", nil},
			{"POST", "/api/v1/machines", map[string]any{"fork_from": fork.ID}},
		} {
			if r := env.Do(c.method, c.path, a.token, c.body); r.Status != 404 {
				t.Errorf("%s %s after delete: %d %s", c.method, c.path, r.Status, r.Body)
			}
		}
		a.del(fork2.ID)
		a.del(m.ID)
		if st, _ := viaProxy(t, env, port.URL, "/"); st != 404 {
			t.Errorf("proxy to a deleted machine: %d", st)
		}
	})
}
