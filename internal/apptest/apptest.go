// Package apptest starts the whole service in-process for tests: a dev-mode
// server on loopback port 0 with a temporary data dir, on SQLite or on a fresh
// PostgreSQL database, driven over real HTTP.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// Env is a running server.
type Env struct {
	T       testing.TB
	App     *app.App
	Creds   app.DevCredentials
	BaseURL string
	Config  app.Config
	Client  *http.Client

	cancel context.CancelFunc
	done   chan error
}

// Option changes the config before start.
type Option func(*app.Config)

// Each runs fn against a fresh server on every covered database.
func Each(t *testing.T, fn func(t *testing.T, env *Env), opts ...Option) {
	t.Helper()
	for _, d := range storetest.Dialects() {
		t.Run(d.String(), func(t *testing.T) {
			fn(t, Start(t, d, opts...))
		})
	}
}

// Config returns a dev-mode config for a fresh server on dialect d.
func Config(t testing.TB, d store.Dialect) app.Config {
	t.Helper()
	dir := t.TempDir()
	cfg := app.Config{
		Dev: true, DataDir: dir, HTTPAddr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		DevPlan: "paid", LogLevel: "warn", RateLimit: 0, MaxBodyBytes: 1 << 20, ShutdownTimeout: 5 * time.Second,
		// Nothing listens there: sender authentication gets an immediate
		// temperror instead of waiting on a resolver this machine cannot
		// reach. Tests that check SPF/DKIM/DMARC run their own DNS server.
		DNSServer: "127.0.0.1:9", SMTPMaxMessageBytes: 25 << 20,
	}
	if d == store.Postgres {
		cfg.DatabaseURL = storetest.Config(t, d).URL
	}
	machinesForTest(t, &cfg)
	return cfg
}

// Start runs a server until the test ends.
func Start(t testing.TB, d store.Dialect, opts ...Option) *Env {
	t.Helper()
	cfg := Config(t, d)
	for _, o := range opts {
		o(&cfg)
	}
	return StartConfig(t, cfg)
}

// StartConfig runs a server with an explicit config.
func StartConfig(t testing.TB, cfg app.Config) *Env {
	t.Helper()
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg, log, "test")
	if err != nil {
		cancel()
		t.Fatalf("start app: %v", err)
	}
	env := &Env{T: t, App: a, Creds: *a.DevCredentials, BaseURL: a.BaseURL(), Config: cfg,
		Client: &http.Client{Timeout: 60 * time.Second}, cancel: cancel, done: make(chan error, 1)}
	go func() { env.done <- a.Run(ctx) }()
	t.Cleanup(env.Stop)
	return env
}

// SMTPAddr is the address of the server's SMTP listener.
func (e *Env) SMTPAddr() string { return e.App.SMTPAddr() }

// Stop shuts the server down (idempotent).
func (e *Env) Stop() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	e.cancel = nil
	select {
	case err := <-e.done:
		if err != nil {
			e.T.Errorf("server stopped with error: %v", err)
		}
	case <-time.After(30 * time.Second):
		e.T.Errorf("server did not stop")
	}
}

// Response is a decoded answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a map.
func (r Response) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Decode decodes the body into v.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// ErrorCode returns error.code of an envelope, or "".
func (r Response) ErrorCode() string {
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &env)
	return env.Error.Code
}

// Do sends a request; body may be nil, a string (sent as is) or a value
// (encoded as JSON).
func (e *Env) Do(method, path, token string, body any) Response {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.BaseURL+path, rd)
	if err != nil {
		e.T.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return e.Send(req)
}

// Send sends a prepared request.
func (e *Env) Send(req *http.Request) Response {
	e.T.Helper()
	resp, err := e.Client.Do(req)
	if err != nil {
		e.T.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// Must fails the test unless the response has the wanted status.
func (e *Env) Must(want int, r Response) Response {
	e.T.Helper()
	if r.Status != want {
		e.T.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	return r
}

// Agent is an agent made for a test.
type Agent struct {
	ID, InboxID, Address, Token string
}

// NewAgent creates an agent with an inbox and a token holding caps, using
// the dev organization's key.
func (e *Env) NewAgent(username string, caps ...string) Agent {
	e.T.Helper()
	return e.NewAgentWithKey(e.Creds.OrgKey, username, caps...)
}

// NewAgentWithKey is NewAgent in the organization of key.
func (e *Env) NewAgentWithKey(key, username string, caps ...string) Agent {
	e.T.Helper()
	r := e.Must(201, e.Do("POST", "/api/v1/inboxes", key, map[string]any{"username": username}))
	var c struct {
		Agent struct{ ID string }
		Inbox struct{ ID, Address string }
	}
	r.Decode(e.T, &c)
	a := Agent{ID: c.Agent.ID, InboxID: c.Inbox.ID, Address: c.Inbox.Address}
	if caps == nil {
		caps = []string{}
	}
	r = e.Must(201, e.Do("POST", "/api/v1/agents/"+a.ID+"/tokens", key, map[string]any{"name": "test", "capabilities": caps}))
	var tok struct{ Token string }
	r.Decode(e.T, &tok)
	a.Token = tok.Token
	return a
}

// NewOrg creates another organization and returns its id and org key.
func (e *Env) NewOrg(name string) (orgID, key string) {
	e.T.Helper()
	c, err := e.App.Orgs.CreateOrganization(context.Background(), org.NewOrganization{
		Name: name, Plan: org.PlanPaid, MailDomain: strings.ToLower(strings.ReplaceAll(name, " ", "")) + ".test",
		OwnerEmail: "owner@" + strings.ToLower(strings.ReplaceAll(name, " ", "")) + ".test", OwnerPassword: "correct horse battery",
	})
	if err != nil {
		e.T.Fatal(err)
	}
	return c.Organization.ID, c.OrgKeySecret
}

// NewOrgKey makes an organization key of the dev organization with caps.
func (e *Env) NewOrgKey(caps ...string) string {
	e.T.Helper()
	var secret string
	err := e.App.DB.InTx(context.Background(), func(tx *store.Tx) error {
		var err error
		_, secret, err = auth.CreateOrgKey(context.Background(), tx, e.Creds.OrganizationID, "limited", caps, "test")
		return err
	})
	if err != nil {
		e.T.Fatal(err)
	}
	return secret
}
