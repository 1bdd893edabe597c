package outbound_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
)

// sendAll sends bodies concurrently (so they share group commits) and
// returns the answers in the order of bodies.
func sendAll(env *apptest.Env, a apptest.Agent, bodies []map[string]any) []apptest.Response {
	env.T.Helper()
	out := make([]apptest.Response, len(bodies))
	var wg sync.WaitGroup
	for i, b := range bodies {
		wg.Go(func() { out[i] = env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, b) })
	}
	wg.Wait()
	return out
}

func count(t *testing.T, env *apptest.Env, query string, args ...any) int {
	t.Helper()
	var n int
	if err := env.App.DB.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Concurrent sends over the sandbox's daily quota: the ones that fit are
// committed, each other one fails alone with 402 while sharing a group
// transaction with sends that succeed, and nothing of it is queued. The
// per-period counters restart from the stored sends when their row is gone.
func TestGroupCommitFailsOnlyTheFailingSend(t *testing.T) {
	newWorld(t, false, func(c *app.Config) { c.DevPlan = "sandbox" })(t, func(t *testing.T, w *world) {
		env := w.env
		a, b := w.agent("groupsender"), w.agent("groupreceiver") // the organization's own inbox counts as verified
		bodies := make([]map[string]any, 12)
		for i := range bodies {
			bodies[i] = map[string]any{"to": []string{b.Address}, "subject": fmt.Sprintf("group %d", i), "text": "x"}
		}
		ok, refused := 0, 0
		var sent []string
		for i, r := range sendAll(env, a, bodies) {
			switch {
			case r.Status == 202:
				ok++
				sent = append(sent, bodies[i]["subject"].(string))
			case r.Status == 402 && strings.Contains(string(r.Body), "sends_per_day"):
				refused++
			default:
				t.Errorf("send: %d %s", r.Status, r.Body)
			}
		}
		if ok != 5 || refused != 7 {
			t.Fatalf("%d sent, %d refused; want 5 and 7", ok, refused)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM outbound_queue WHERE inbox_id = $1`, a.InboxID); n != 5 {
			t.Errorf("%d queue rows, want 5", n)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM messages WHERE inbox_id = $1`, a.InboxID); n != 5 {
			t.Errorf("%d stored outbound messages, want 5", n)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM blob_data`); n < 5 {
			t.Errorf("%d raw messages in blob_data, want at least 5", n)
		}
		if _, err := env.App.DB.ExecContext(context.Background(), `DELETE FROM outbound_usage`); err != nil {
			t.Fatal(err)
		}
		bodies[0]["subject"] = "after the counters were lost"
		if r := env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, bodies[0]); r.Status != 402 {
			t.Errorf("send after the counters restarted: %d %s, want 402", r.Status, r.Body)
		}
		for _, subject := range sent {
			w.waitMessage(b, "inbound", subject)
		}
	})
}

// Identical sends with one idempotency key racing each other, some in the
// same group transaction: one message, every answer the same, and the draft
// they name is gone.
func TestConcurrentIdempotentDraftSends(t *testing.T) {
	newWorld(t, false)(t, func(t *testing.T, w *world) {
		env := w.env
		a := w.agent("racer")
		d := env.Must(201, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/drafts", a.Token,
			map[string]any{"to": []string{"carol@example.test"}, "subject": "Draft race", "text": "x"})).JSON()
		body := map[string]any{"draft_id": d["id"], "idempotency_key": "race-1"}
		bodies := []map[string]any{body, body, body, body, body, body, body, body}
		var id any
		for _, r := range sendAll(env, a, bodies) {
			if r.Status != 202 {
				t.Fatalf("send: %d %s", r.Status, r.Body)
			}
			if got := r.JSON()["id"]; id == nil {
				id = got
			} else if got != id {
				t.Errorf("message id %v, another answer said %v", got, id)
			}
		}
		if n := count(t, env, `SELECT COUNT(*) FROM outbound_messages WHERE inbox_id = $1`, a.InboxID); n != 1 {
			t.Errorf("%d sends stored, want 1", n)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM outbound_queue WHERE inbox_id = $1`, a.InboxID); n != 1 {
			t.Errorf("%d queue rows, want 1", n)
		}
		env.Must(404, env.Do("GET", "/api/v1/drafts/"+d["id"].(string), a.Token, nil))
		w.waitStatus(a, id.(string), map[string]string{"carol@example.test": "delivered"})
	})
}

// A large message (here a 300 KB attachment) is kept as a file, read by the
// worker when it is attempted; small ones live in the database.
func TestLargeMessageIsAFile(t *testing.T) {
	newWorld(t, true)(t, func(t *testing.T, w *world) {
		env := w.env
		a := w.agent("bigsender")
		data := bytes.Repeat([]byte("0123456789abcdef"), 300<<10/16)
		up := w.upload(a, "big.bin", data)
		big := w.send(a, map[string]any{"to": []string{"bob@example.test"}, "subject": "big", "text": "x", "attachment_ids": []string{up}})
		small := w.send(a, map[string]any{"to": []string{"bob@example.test"}, "subject": "small", "text": "x"})
		got := w.sink.Wait(t, 2, 15*time.Second)
		for _, r := range got {
			if m := parseRaw(t, r.Raw); m.Header.Get("Subject") == "big" && len(r.Raw) < len(data) {
				t.Errorf("big message arrived with %d bytes", len(r.Raw))
			}
		}
		for id, wantDB := range map[string]bool{big["id"].(string): false, small["id"].(string): true} {
			var blob string
			if err := env.App.DB.QueryRowContext(context.Background(), `SELECT blob_path FROM messages WHERE id = $1`, id).Scan(&blob); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(blob, mailbox.DBPrefix) != wantDB {
				t.Errorf("message %s stored at %q", id, blob)
			}
		}
	})
}
