package webhooks_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/client/webhook"
	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
)

// fakeClock is the webhooks' clock in tests: the schedule and auto-disable
// move by Advance, never by sleeping.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Now().UTC()} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// withClock makes the server use clk and (so tests of hanging receivers
// take 200 ms, not the reference's 10 s) a short attempt timeout.
func withClock(clk *fakeClock) apptest.Option {
	return func(c *app.Config) {
		c.WebhookClock = clk.Now
		c.WebhookAttemptTimeout = 200 * time.Millisecond
	}
}

// received is one request a receiver accepted, its signature verified.
type received struct {
	Body     map[string]any
	Raw      []byte
	Header   http.Header
	Previous bool
}

// receiver is a real HTTP server that verifies every request with the public
// client/webhook package, keeps the verified ones, and answers as behave says.
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	got    []received
	bad    int
	behave func(w http.ResponseWriter, r *http.Request) bool // true: handled (answered otherwise than 204)
	clock  func() time.Time
}

func newReceiver(t *testing.T, clock func() time.Time) *receiver {
	t.Helper()
	rc := &receiver{t: t, clock: clock}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	secret, behave := rc.secret, rc.behave
	rc.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(raw))
	if behave != nil && behave(w, r) {
		return
	}
	if err := webhook.Verify(secret, r.Header, raw, rc.clock()); err != nil {
		rc.mu.Lock()
		rc.bad++
		rc.mu.Unlock()
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.got = append(rc.got, received{Body: body, Raw: raw, Header: r.Header.Clone()})
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) set(secret string, behave func(http.ResponseWriter, *http.Request) bool) {
	rc.mu.Lock()
	rc.secret, rc.behave = secret, behave
	rc.mu.Unlock()
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// waitType waits for a verified delivery of typ and returns the first one.
func (rc *receiver) waitType(typ string) received {
	rc.t.Helper()
	var out received
	eventually(rc.t, "a "+typ+" delivery", func() bool {
		for _, g := range rc.all() {
			if g.Body["type"] == typ {
				out = g
				return true
			}
		}
		return false
	})
	return out
}

// eventually polls cond (the server works in the background) for up to 15 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type endpointResp struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
	Status string `json:"status"`
}

func createEndpoint(t *testing.T, env *apptest.Env, key string, body map[string]any) endpointResp {
	t.Helper()
	var e endpointResp
	env.Must(201, env.Do("POST", "/api/v1/webhooks", key, body)).Decode(t, &e)
	if !strings.HasPrefix(e.Secret, "whsec_") || !strings.HasPrefix(e.ID, "whe_") {
		t.Fatalf("create: %+v", e)
	}
	return e
}

type deliveryResp struct {
	ID             string     `json:"id"`
	EventID        string     `json:"event_id"`
	EventType      string     `json:"event_type"`
	Sequence       string     `json:"sequence"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  *time.Time `json:"next_attempt_at"`
	LastAttemptAt  *time.Time `json:"last_attempt_at"`
	LastStatusCode int        `json:"last_status_code"`
	LastError      string     `json:"last_error"`
}

func deliveries(t *testing.T, env *apptest.Env, endpointID string) []deliveryResp {
	t.Helper()
	var page struct {
		Data []deliveryResp `json:"data"`
	}
	env.Must(200, env.Do("GET", "/api/v1/webhooks/"+endpointID+"/deliveries?limit=200", env.Creds.OrgKey, nil)).Decode(t, &page)
	return page.Data
}

// waitDelivery waits until the delivery's state satisfies cond.
func waitDelivery(t *testing.T, env *apptest.Env, endpointID, id string, cond func(deliveryResp) bool) deliveryResp {
	t.Helper()
	var out deliveryResp
	eventually(t, "delivery "+id, func() bool {
		for _, d := range deliveries(t, env, endpointID) {
			if d.ID == id && cond(d) {
				out = d
				return true
			}
		}
		return false
	})
	return out
}

// sendMail delivers a message over a real SMTP session.
func sendMail(t *testing.T, env *apptest.Env, from, to, subject, body string) {
	t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%d@client.test>\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", from, to, subject, time.Now().Format(time.RFC1123Z), time.Now().UnixNano(), body)
	err := apptest.SendMail(env.SMTPAddr(), from, []string{to}, raw)
	if err != nil {
		t.Fatalf("smtp: %v", err)
	}
}

func nowFunc() time.Time { return time.Now() }
