package webhooks_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/client/webhook"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

func queueTest(t *testing.T, env *apptest.Env, endpointID string) deliveryResp {
	t.Helper()
	var d deliveryResp
	env.Must(202, env.Do("POST", "/api/v1/webhooks/"+endpointID+"/test", env.Creds.OrgKey, nil)).Decode(t, &d)
	return d
}

// checkWait asserts next_attempt_at - last_attempt_at is the schedule's
// wait after attempt n, stretched by at most 10 %.
func checkWait(t *testing.T, d deliveryResp, n int) {
	t.Helper()
	if d.NextAttemptAt == nil || d.LastAttemptAt == nil {
		t.Fatalf("attempt %d: no next or last attempt: %+v", n, d)
	}
	base := webhooks.Schedule[n-1]
	wait := d.NextAttemptAt.Sub(*d.LastAttemptAt)
	if wait < base || wait > base+base/10 {
		t.Fatalf("attempt %d: wait %s, want %s..%s", n, wait, base, base+base/10)
	}
}

// TestRetrySchedule: a receiver answering 500 gets ten attempts on the
// reference's schedule (moved by a fake clock), then the delivery is dead;
// a replay after the receiver recovers succeeds, signed with the current
// secret.
func TestRetrySchedule(t *testing.T) {
	clk := newFakeClock()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, clk.Now)
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL})
		var hits atomic.Int32
		rc.set(ep.Secret, func(w http.ResponseWriter, r *http.Request) bool {
			hits.Add(1)
			if webhook.Verify(ep.Secret, r.Header, mustBody(r), clk.Now()) != nil {
				t.Errorf("a failing attempt was not signed correctly")
			}
			http.Error(w, "boom", http.StatusInternalServerError)
			return true
		})
		d := queueTest(t, env, ep.ID)
		for n := 1; n <= webhooks.MaxAttempts; n++ {
			got := waitDelivery(t, env, ep.ID, d.ID, func(x deliveryResp) bool { return x.Attempts == n })
			if n < webhooks.MaxAttempts {
				if got.Status != "failed" || got.LastStatusCode != 500 || !strings.Contains(got.LastError, "500") {
					t.Fatalf("attempt %d: %+v", n, got)
				}
				checkWait(t, got, n)
				// Just before the due time nothing happens.
				clk.Advance(got.NextAttemptAt.Sub(clk.Now()) - time.Millisecond)
				env.App.Webhooks.Kick()
				time.Sleep(30 * time.Millisecond)
				if int(hits.Load()) != n {
					t.Fatalf("attempt %d came early", n+1)
				}
				clk.Advance(time.Millisecond)
				env.App.Webhooks.Kick()
				continue
			}
			if got.Status != "dead" || got.NextAttemptAt != nil {
				t.Fatalf("after the 10th failure: %+v", got)
			}
		}
		// Rotate, recover, replay: signed with the new secret.
		var rot struct{ Secret string }
		env.Must(200, env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/rotate", env.Creds.OrgKey, nil)).Decode(t, &rot)
		rc.set(rot.Secret, nil)
		env.Must(202, env.Do("POST", "/api/v1/webhook-deliveries/"+d.ID+"/replay", env.Creds.OrgKey, nil))
		waitDelivery(t, env, ep.ID, d.ID, func(x deliveryResp) bool { return x.Status == "succeeded" })
		if g := rc.all(); len(g) != 1 || g[0].Header.Get(webhook.HeaderDeliveryID) != d.ID {
			t.Fatalf("replay: %+v", g)
		}
		// A succeeded delivery is not replayed.
		r := env.Do("POST", "/api/v1/webhook-deliveries/"+d.ID+"/replay", env.Creds.OrgKey, nil)
		if r.Status != 409 || r.ErrorCode() != "invalid_state" {
			t.Fatalf("replay of succeeded: %d %s", r.Status, r.Body)
		}
	}, withClock(clk))
}

func mustBody(r *http.Request) []byte {
	b := make([]byte, 0, 512)
	buf := make([]byte, 512)
	for {
		n, err := r.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			return b
		}
	}
}

// TestFailureModes: each kind of failing receiver ends its attempt failed,
// with the reason, and the next attempt 5 s (+10 %) later.
func TestFailureModes(t *testing.T) {
	clk := newFakeClock()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		var redirected atomic.Int32
		target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { redirected.Add(1) }))
		defer target.Close()
		timeout := env.Config.WebhookAttemptTimeout
		cases := []struct {
			name    string
			behave  func(http.ResponseWriter, *http.Request) bool
			code    int
			errPart string
		}{
			{"500", func(w http.ResponseWriter, r *http.Request) bool { w.WriteHeader(500); return true }, 500, "non-2xx"},
			{"redirect", func(w http.ResponseWriter, r *http.Request) bool {
				http.Redirect(w, r, target.URL+"/elsewhere", http.StatusFound)
				return true
			}, 302, "redirect not followed"},
			{"redirect to a private address", func(w http.ResponseWriter, r *http.Request) bool {
				http.Redirect(w, r, "http://10.0.0.1/", http.StatusTemporaryRedirect)
				return true
			}, 307, "redirect not followed"},
			{"closes the connection", func(w http.ResponseWriter, r *http.Request) bool {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					conn.Close()
				}
				return true
			}, 0, "connection error"},
			{"hangs", func(w http.ResponseWriter, r *http.Request) bool { <-r.Context().Done(); return true }, 0, "timeout"},
			{"answers just past the timeout", func(w http.ResponseWriter, r *http.Request) bool {
				select {
				case <-time.After(timeout + 50*time.Millisecond):
				case <-r.Context().Done():
				}
				w.WriteHeader(200)
				return true
			}, 0, "timeout"},
		}
		for _, c := range cases {
			t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
				rc := newReceiver(t, clk.Now)
				ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL})
				rc.set(ep.Secret, c.behave)
				d := queueTest(t, env, ep.ID)
				got := waitDelivery(t, env, ep.ID, d.ID, func(x deliveryResp) bool { return x.Attempts == 1 })
				if got.Status != "failed" || got.LastStatusCode != c.code || !strings.Contains(got.LastError, c.errPart) {
					t.Fatalf("got %+v, want failed %d %q", got, c.code, c.errPart)
				}
				checkWait(t, got, 1)
				env.Must(204, env.Do("DELETE", "/api/v1/webhooks/"+ep.ID, env.Creds.OrgKey, nil))
			})
		}
		if redirected.Load() != 0 {
			t.Fatalf("a redirect was followed")
		}
	}, withClock(clk))
}

// TestRotationOverlap: after a rotation deliveries carry both signatures
// for 24 hours; a second rotation drops the oldest secret at once.
func TestRotationOverlap(t *testing.T) {
	clk := newFakeClock()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, clk.Now)
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL})
		rotate := func() string {
			var r struct {
				Secret  string    `json:"secret"`
				Expires time.Time `json:"previous_secret_expires_at"`
			}
			env.Must(200, env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/rotate", env.Creds.OrgKey, nil)).Decode(t, &r)
			if d := r.Expires.Sub(clk.Now()); d < 24*time.Hour-time.Second || d > 24*time.Hour+time.Second {
				t.Fatalf("previous_secret_expires_at in %s", d)
			}
			return r.Secret
		}
		s1 := ep.Secret
		s2 := rotate()
		rc.set(s1, nil) // a receiver that has not switched yet still verifies
		queueTest(t, env, ep.ID)
		eventually(t, "delivery verified with the old secret", func() bool { return len(rc.all()) == 1 })
		g := rc.all()[0]
		if webhook.Verify(s2, g.Header, g.Raw, clk.Now()) != nil || g.Header.Get(webhook.HeaderSignaturePrevious) == "" {
			t.Fatalf("not signed with both: %v", g.Header)
		}
		clk.Advance(time.Hour)
		s3 := rotate()
		rc.set(s2, nil)
		queueTest(t, env, ep.ID)
		eventually(t, "second delivery", func() bool { return len(rc.all()) == 2 })
		g = rc.all()[1]
		if webhook.Verify(s1, g.Header, g.Raw, clk.Now()) == nil {
			t.Fatalf("the oldest secret still verifies after a second rotation")
		}
		if webhook.Verify(s3, g.Header, g.Raw, clk.Now()) != nil {
			t.Fatalf("current secret does not verify")
		}
		clk.Advance(24*time.Hour + time.Minute)
		rc.set(s3, nil)
		queueTest(t, env, ep.ID)
		eventually(t, "third delivery", func() bool { return len(rc.all()) == 3 })
		if h := rc.all()[2].Header.Get(webhook.HeaderSignaturePrevious); h != "" {
			t.Fatalf("previous signature after the overlap: %s", h)
		}
	}, withClock(clk))
}

// TestPauseSkipRedeliver: events for a paused endpoint are skipped;
// redeliver refuses a paused endpoint (409) and, once active, queues them
// oldest first (202 with queued and has_more).
func TestPauseSkipRedeliver(t *testing.T) {
	clk := newFakeClock()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, clk.Now)
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL, "event_types": []string{"inbox.created"}})
		rc.set(ep.Secret, nil)
		since := clk.Now().Add(-time.Second).Format(time.RFC3339Nano)
		env.Must(200, env.Do("PATCH", "/api/v1/webhooks/"+ep.ID, env.Creds.OrgKey, map[string]any{"status": "paused"}))
		r := env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/test", env.Creds.OrgKey, nil)
		if r.Status != 409 {
			t.Fatalf("test on paused endpoint: %d", r.Status)
		}
		env.NewAgent("paused1")
		env.NewAgent("paused2")
		eventually(t, "two skipped deliveries", func() bool {
			ds := deliveries(t, env, ep.ID)
			return len(ds) == 2 && ds[0].Status == "skipped" && ds[1].Status == "skipped"
		})
		r = env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/redeliver", env.Creds.OrgKey, map[string]any{"since": since})
		if r.Status != 409 || r.ErrorCode() != "invalid_state" {
			t.Fatalf("redeliver on paused: %d %s", r.Status, r.Body)
		}
		env.Must(200, env.Do("PATCH", "/api/v1/webhooks/"+ep.ID, env.Creds.OrgKey, map[string]any{"status": "active"}))
		r = env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/redeliver", env.Creds.OrgKey, map[string]any{"since": since, "statuses": []string{"dead"}})
		if r.Status != 202 || r.JSON()["queued"] != float64(0) {
			t.Fatalf("redeliver dead only: %d %s", r.Status, r.Body)
		}
		r = env.Must(202, env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/redeliver", env.Creds.OrgKey, map[string]any{"since": since}))
		if r.JSON()["queued"] != float64(2) || r.JSON()["has_more"] != false {
			t.Fatalf("redeliver: %s", r.Body)
		}
		eventually(t, "both redelivered", func() bool { return len(rc.all()) == 2 })
		for _, bad := range []map[string]any{{}, {"since": "yesterday"}, {"since": since, "statuses": []string{"succeeded"}}} {
			env.Must(400, env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/redeliver", env.Creds.OrgKey, bad))
		}
	}, withClock(clk))
}

// TestAutoDisable: 3 days of failures with at least 20 failed attempts
// disable the endpoint and notify the owners; one success resets the count.
func TestAutoDisable(t *testing.T) {
	clk := newFakeClock()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, clk.Now)
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL})
		fail := func(w http.ResponseWriter, r *http.Request) bool { w.WriteHeader(503); return true }
		rc.set(ep.Secret, fail)
		getEP := func() map[string]any {
			return env.Must(200, env.Do("GET", "/api/v1/webhooks/"+ep.ID, env.Creds.OrgKey, nil)).JSON()
		}
		// A few failures, then one success: the count resets.
		d := queueTest(t, env, ep.ID)
		waitDelivery(t, env, ep.ID, d.ID, func(x deliveryResp) bool { return x.Attempts == 1 })
		if getEP()["failing_since"] == nil {
			t.Fatal("failing_since not set")
		}
		rc.set(ep.Secret, nil)
		clk.Advance(6 * time.Second)
		env.App.Webhooks.Kick()
		waitDelivery(t, env, ep.ID, d.ID, func(x deliveryResp) bool { return x.Status == "succeeded" })
		if getEP()["failing_since"] != nil {
			t.Fatal("a success did not reset the failure count")
		}

		rc.set(ep.Secret, fail)
		var ids []string
		for range webhooks.DisableMinFailures + 1 {
			ids = append(ids, queueTest(t, env, ep.ID).ID)
		}
		eventually(t, "21 failed attempts", func() bool {
			n := 0
			for _, d := range deliveries(t, env, ep.ID) {
				if d.Status == "failed" {
					n++
				}
			}
			return n == len(ids)
		})
		if getEP()["status"] != "active" {
			t.Fatal("disabled before 3 days")
		}
		clk.Advance(webhooks.DisableAfter + time.Minute)
		env.App.Webhooks.Kick()
		eventually(t, "endpoint disabled", func() bool { return getEP()["status"] == "disabled" })
		// The owners' notice is in the audit history.
		eventually(t, "owner notice", func() bool {
			r := env.Must(200, env.Do("GET", "/api/v1/audit-events?limit=100", env.Creds.OrgKey, nil))
			return strings.Contains(string(r.Body), "owners.notified") && strings.Contains(string(r.Body), "webhook.endpoint_disabled")
		})
		// What was still due is skipped now.
		eventually(t, "no pending delivery left", func() bool {
			clk.Advance(time.Minute) // retries of the attempts in flight when it was disabled
			env.App.Webhooks.Kick()
			for _, d := range deliveries(t, env, ep.ID) {
				if d.Status == "failed" || d.Status == "pending" {
					return false
				}
			}
			return true
		})
		// Re-activating resets the count.
		env.Must(200, env.Do("PATCH", "/api/v1/webhooks/"+ep.ID, env.Creds.OrgKey, map[string]any{"status": "active"}))
		if e := getEP(); e["status"] != "active" || e["failing_since"] != nil {
			t.Fatalf("re-activated: %v", e)
		}
	}, withClock(clk))
}

// TestRetentionAndBudget: deliveries older than 30 days are swept; the
// 101st test in an hour is 429 with Retry-After.
func TestRetentionAndBudget(t *testing.T) {
	clk := newFakeClock()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, clk.Now)
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL})
		rc.set(ep.Secret, nil)
		clk.Advance(time.Hour - time.Duration(clk.Now().UnixNano())%time.Hour + time.Minute) // start of a window
		for i := range webhooks.TestBudgetPerHour {
			r := env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/test", env.Creds.OrgKey, nil)
			if r.Status != 202 {
				t.Fatalf("test %d: %d %s", i, r.Status, r.Body)
			}
		}
		r := env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/test", env.Creds.OrgKey, nil)
		if r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("101st test: %d %v %s", r.Status, r.Header, r.Body)
		}
		eventually(t, "100 deliveries", func() bool { return len(rc.all()) == webhooks.TestBudgetPerHour })
		eventually(t, "100 recorded", func() bool {
			for _, d := range deliveries(t, env, ep.ID) {
				if d.Status != "succeeded" {
					return false
				}
			}
			return true
		})
		clk.Advance(29 * 24 * time.Hour)
		if n, err := env.App.Webhooks.Sweep(context.Background()); err != nil || n != 0 {
			t.Fatalf("swept %d (%v) before 30 days", n, err)
		}
		clk.Advance(24*time.Hour + time.Minute)
		if n, err := env.App.Webhooks.Sweep(context.Background()); err != nil || n != webhooks.TestBudgetPerHour {
			t.Fatalf("swept %d (%v), want 100", n, err)
		}
		if len(deliveries(t, env, ep.ID)) != 0 {
			t.Fatal("deliveries left after the sweep")
		}
		env.Must(202, env.Do("POST", "/api/v1/webhooks/"+ep.ID+"/test", env.Creds.OrgKey, nil)) // a new window
	}, withClock(clk))
}

var _ = net.IPv4len
