package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

var decimal = regexp.MustCompile(`^[0-9]+$`)

// TestEventsCursorIsWebhookSequence checks the reference's "Webhook
// request": sequence is a "Decimal string; position in the organization's
// event log; equals the events API cursor". The events API's next_cursor and
// each event's sequence are that decimal string, the webhook sequence of an
// event continues the feed after it, and cursors of the old encoded form
// still work.
func TestEventsCursorIsWebhookSequence(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		var mu sync.Mutex
		var hooks []map[string]any
		rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var b map[string]any
			if json.Unmarshal(raw, &b) == nil {
				mu.Lock()
				hooks = append(hooks, b)
				mu.Unlock()
			}
			w.WriteHeader(204)
		}))
		defer rc.Close()

		a := env.NewAgent("sequenced", auth.EmailRead)
		env.Must(201, env.Do("POST", "/api/v1/webhooks", env.Creds.OrgKey,
			map[string]any{"url": rc.URL + "/hook", "event_types": []string{"message.received"}, "inbox_id": a.InboxID}))
		ev := "/api/v1/inboxes/" + a.InboxID + "/events"
		start := env.Must(200, env.Do("GET", ev, a.Token, nil)).JSON()["next_cursor"].(string)
		if !decimal.MatchString(start) {
			t.Fatalf("next_cursor %q is not a decimal string", start)
		}

		if err := apptest.SendMail(env.SMTPAddr(), "carol@seq.example", []string{a.Address}, rawMail("carol@seq.example", a.Address, "Sequenced")); err != nil {
			t.Fatal(err)
		}
		page := env.Must(200, env.Do("GET", ev+"?wait=15&cursor="+start, a.Token, nil)).JSON()
		data := page["data"].([]any)
		if len(data) != 1 {
			t.Fatalf("events after %s: %v", start, page)
		}
		event := data[0].(map[string]any)
		seq, ok := event["sequence"].(string)
		if !ok || !decimal.MatchString(seq) || event["type"] != "message.received" {
			t.Fatalf("event sequence is not a decimal string: %v", event)
		}
		if page["next_cursor"] != seq {
			t.Errorf("next_cursor %v, want the sequence of the last event %s", page["next_cursor"], seq)
		}

		// The webhook delivery of the same event carries the same sequence.
		var hook map[string]any
		for deadline := time.Now().Add(15 * time.Second); hook == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			for _, h := range hooks {
				if h["id"] == event["id"] {
					hook = h
				}
			}
			mu.Unlock()
		}
		if hook == nil {
			t.Fatalf("no webhook delivery of %v", event["id"])
		}
		if hook["sequence"] != seq {
			t.Errorf("webhook sequence %v, events API sequence %s", hook["sequence"], seq)
		}
		for _, k := range []string{"id", "type", "occurred_at", "organization_id", "inbox_id"} {
			if _, ok := event[k]; !ok {
				t.Errorf("event lacks %s, which the webhook body has: %v", k, event)
			}
		}

		// The webhook sequence is a cursor: after it nothing, just before it the event.
		if n := len(env.Must(200, env.Do("GET", ev+"?cursor="+seq, a.Token, nil)).JSON()["data"].([]any)); n != 0 {
			t.Errorf("events after the webhook sequence %s: %d", seq, n)
		}
		n, _ := strconv.ParseInt(seq, 10, 64)
		again := env.Must(200, env.Do("GET", ev+"?cursor="+strconv.FormatInt(n-1, 10), a.Token, nil)).JSON()["data"].([]any)
		if len(again) != 1 || again[0].(map[string]any)["id"] != event["id"] {
			t.Errorf("events after sequence %d: %v", n-1, again)
		}

		// A cursor of the earlier encoded form still reads the same feed.
		old := base64.RawURLEncoding.EncodeToString([]byte("c1:" + start))
		oldPage := env.Must(200, env.Do("GET", ev+"?cursor="+old, a.Token, nil)).JSON()
		if d := oldPage["data"].([]any); len(d) != 1 || d[0].(map[string]any)["id"] != event["id"] || oldPage["next_cursor"] != seq {
			t.Errorf("old-form cursor: %v", oldPage)
		}

		for _, bad := range []string{"abc", "-1", "1.5", "99999999999999999999", base64.RawURLEncoding.EncodeToString([]byte("c1:-4"))} {
			if r := env.Do("GET", ev+"?cursor="+bad, a.Token, nil); r.Status != 400 || r.ErrorCode() != "invalid_request" {
				t.Errorf("cursor %q: %d %s", bad, r.Status, r.Body)
			}
		}
	})
}
