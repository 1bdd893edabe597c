package app_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/store"
)

func TestValidateReportsEveryProblem(t *testing.T) {
	cfg := app.Config{
		HTTPAddr: "nope", SMTPAddr: ":25", AdminAddr: "", DataDir: "x", DatabaseURL: "mysql://x",
		BaseURL: "ftp://x", LogFormat: "xml", LogLevel: "loud", DevPlan: "gold", MaxBodyBytes: 1, ShutdownTimeout: time.Second,
		VaultReadAuditSync: -time.Millisecond, Postmaster: "postmaster",
	}
	err := cfg.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"http-addr", "database-url", "base-url", "mail-domain", "log-format", "log-level", "dev-plan", "max-body-bytes", "vault-read-audit-sync", "postmaster"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
	dev := app.Config{Dev: true, HTTPAddr: "0.0.0.0:8080", DataDir: "x", DevPlan: "paid", LogLevel: "info", MaxBodyBytes: 1 << 20, ShutdownTimeout: time.Second}
	if err := dev.Validate(); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("dev mode on 0.0.0.0 accepted: %v", err)
	}
}

func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/agentsvc.yaml"
	if err := writeFile(file, "http-addr: 127.0.0.1:1111\nlog-level: debug\nmail-domain: file.example\n"); err != nil {
		t.Fatal(err)
	}
	var cfg app.Config
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	app.BindFlags(fs, &cfg)
	if err := fs.Parse([]string{"--config", file, "--log-level", "warn"}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"AGENTSVC_HTTP_ADDR": "127.0.0.1:2222"}
	if err := app.Load(fs, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != "127.0.0.1:2222" || cfg.LogLevel != "warn" || cfg.MailDomain != "file.example" {
		t.Fatalf("precedence wrong: http=%s level=%s domain=%s", cfg.HTTPAddr, cfg.LogLevel, cfg.MailDomain)
	}
	if err := writeFile(file, "htp-addr: x\n"); err != nil {
		t.Fatal(err)
	}
	fs2 := pflag.NewFlagSet("t", pflag.ContinueOnError)
	app.BindFlags(fs2, &cfg)
	_ = fs2.Parse([]string{"--config", file})
	if err := app.Load(fs2, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "htp-addr") {
		t.Fatalf("unknown setting accepted: %v", err)
	}
}

func TestDevModeReusesOrganization(t *testing.T) {
	cfg := apptest.Config(t, store.SQLite)
	first := apptest.StartConfig(t, cfg)
	creds := first.Creds
	if creds.OrgKey == "" || creds.OwnerEmail == "" || creds.OwnerPassword == "" || creds.MailDomain != "agentsvc.localhost" ||
		creds.BaseURL != first.BaseURL || creds.IssuerURL != first.BaseURL || creds.SMTPAddr == "" {
		t.Fatalf("dev credentials incomplete: %+v", creds)
	}
	first.Must(201, first.Do("POST", "/api/v1/inboxes", creds.OrgKey, map[string]any{"username": "keeper"}))
	first.Stop()

	second := apptest.StartConfig(t, cfg)
	if second.Creds.OrganizationID != creds.OrganizationID || second.Creds.OrgKey != creds.OrgKey {
		t.Fatalf("second start made a new organization: %+v vs %+v", second.Creds, creds)
	}
	r := second.Must(200, second.Do("GET", "/api/v1/agents", creds.OrgKey, nil))
	if !strings.Contains(string(r.Body), "keeper") {
		t.Fatalf("data lost across restart: %s", r.Body)
	}
}

// TestShutdownFinishesInFlightRequests stops the server while a request is
// half sent: the request still completes, then the listener is closed.
func TestShutdownFinishesInFlightRequests(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	body := `{"username":"inflight"}`
	conn, err := net.Dial("tcp", env.App.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/inboxes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		env.Creds.OrgKey, len(body), body[:5])
	time.Sleep(200 * time.Millisecond) // the server is now reading the body

	stopped := make(chan struct{})
	go func() { env.Stop(); close(stopped) }()
	time.Sleep(200 * time.Millisecond)
	select {
	case <-stopped:
		t.Fatal("server stopped with a request in flight")
	default:
	}
	if _, err := io.WriteString(conn, body[5:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("in-flight request lost: %v", err)
	}
	if resp.StatusCode != 201 {
		t.Fatalf("in-flight request got %d", resp.StatusCode)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop after the request finished")
	}
	if _, err := net.DialTimeout("tcp", env.App.HTTPAddr(), time.Second); err == nil {
		t.Fatal("listener still open after shutdown")
	}
}

func TestHealthAndMetrics(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	env.Must(200, env.Do("GET", "/healthz", "", nil))
	env.Must(200, env.Do("GET", "/readyz", "", nil))
	env.Do("GET", "/api/v1/me", "", nil)
	resp, err := http.Get("http://" + env.App.AdminAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(raw), `agentsvc_http_requests_total{method="GET",route="GET /api/v1/me",status="401"}`) ||
		!strings.Contains(string(raw), "agentsvc_http_request_duration_seconds_bucket") {
		t.Fatalf("metrics lack request series:\n%s", raw)
	}
	resp, err = http.Get("http://" + env.App.AdminAddr() + "/debug/pprof/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("pprof: %v %v", err, resp)
	}
	resp.Body.Close()
	// Request ids: echoed when sane, generated otherwise.
	req, _ := http.NewRequest("GET", env.BaseURL+"/healthz", nil)
	req.Header.Set("X-Request-Id", "abc-123")
	if r := env.Send(req); r.Header.Get("X-Request-Id") != "abc-123" {
		t.Fatalf("request id not echoed: %v", r.Header)
	}
}
