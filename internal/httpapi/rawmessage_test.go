package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// rawMail is a message with an attachment, as a client would send it.
func rawMail(from, to, subject string) string {
	return strings.ReplaceAll(fmt.Sprintf("From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%d@raw.test>\n"+
		"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nthe body\n"+
		"--b\nContent-Type: text/csv\nContent-Disposition: attachment; filename=a.csv\n\nx,y\n--b--\n",
		from, to, subject, time.Now().Format(time.RFC1123Z), time.Now().UnixNano()), "\n", "\r\n")
}

// storedMessages polls the inbox until it holds n messages (quarantined mail
// is listed, though wait ignores it) and returns them newest first.
func storedMessages(t *testing.T, env *apptest.Env, a apptest.Agent, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		data := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/messages?limit=100", a.Token, nil)).JSON()["data"].([]any)
		if len(data) >= n {
			out := make([]map[string]any, len(data))
			for i, m := range data {
				out[i] = m.(map[string]any)
			}
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d messages stored, want %d", len(data), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRawMessageDownload covers GET /api/v1/messages/{id}/raw: the bytes the
// server stored (what was sent over SMTP plus the Received header it
// prepends), served as a message/rfc822 download; 403 without email:read,
// 404 for another agent's message, 409 while quarantined.
func TestRawMessageDownload(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("rawreader", auth.EmailRead, auth.EmailSend)
		other := env.NewAgent("rawother", auth.EmailRead)
		sent := rawMail("alice@raw.example", a.Address, "Raw please")
		if err := apptest.SendMail(env.SMTPAddr(), "alice@raw.example", []string{a.Address}, sent); err != nil {
			t.Fatal(err)
		}
		msg := storedMessages(t, env, a, 1)[0]
		id := msg["id"].(string)
		path := "/api/v1/messages/" + id + "/raw"

		r := env.Must(200, env.Do("GET", path, a.Token, nil))
		var blob string
		if err := env.App.DB.QueryRowContext(context.Background(), `SELECT blob_path FROM messages WHERE id = $1`, id).Scan(&blob); err != nil {
			t.Fatal(err)
		}
		stored, err := env.App.Mailbox.Blobs().ReadContext(context.Background(), blob)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r.Body, stored) {
			t.Errorf("raw body differs from the stored blob:\n%q\nwant\n%q", r.Body, stored)
		}
		if !bytes.HasPrefix(r.Body, []byte("Received: ")) || !bytes.HasSuffix(r.Body, []byte(sent)) {
			t.Errorf("raw body is not the sent message behind a Received header:\n%q", r.Body)
		}
		if ct := r.Header.Get("Content-Type"); ct != "message/rfc822" {
			t.Errorf("Content-Type = %q", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); cd != "attachment; filename="+id+".eml" {
			t.Errorf("Content-Disposition = %q", cd)
		}
		if ns := r.Header.Get("X-Content-Type-Options"); ns != "nosniff" {
			t.Errorf("X-Content-Type-Options = %q", ns)
		}

		// A token of the same agent without email:read.
		tok := env.Must(201, env.Do("POST", "/api/v1/agents/"+a.ID+"/tokens", env.Creds.OrgKey,
			map[string]any{"name": "send-only", "capabilities": []string{auth.EmailSend}})).JSON()["token"].(string)
		if r := env.Do("GET", path, tok, nil); r.Status != 403 || r.ErrorCode() != "forbidden" || !strings.Contains(string(r.Body), auth.EmailRead) {
			t.Errorf("without email:read: %d %s", r.Status, r.Body)
		}
		if r := env.Do("GET", path, other.Token, nil); r.Status != 404 || r.ErrorCode() != "not_found" {
			t.Errorf("another agent's message: %d %s", r.Status, r.Body)
		}
		if r := env.Do("GET", "/api/v1/messages/msg_nonexistent/raw", a.Token, nil); r.Status != 404 {
			t.Errorf("unknown message: %d %s", r.Status, r.Body)
		}

		// Held mail: its content is withheld, so its raw form is too.
		env.Must(201, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/sender-rules", a.Token, map[string]any{"kind": "block", "pattern": "@held.example"}))
		if err := apptest.SendMail(env.SMTPAddr(), "x@held.example", []string{a.Address}, rawMail("x@held.example", a.Address, "Held")); err != nil {
			t.Fatal(err)
		}
		held := storedMessages(t, env, a, 2)[0]
		if held["quarantined"] != true {
			t.Fatalf("blocked mail not held: %v", held)
		}
		heldPath := "/api/v1/messages/" + held["id"].(string) + "/raw"
		if r := env.Do("GET", heldPath, a.Token, nil); r.Status != 409 || r.ErrorCode() != "invalid_state" {
			t.Errorf("quarantined message: %d %s", r.Status, r.Body)
		}
		// Once a team member releases it, the agent can download it.
		env.Must(200, env.Do("POST", "/api/v1/threads/"+held["thread_id"].(string)+"/release", env.Creds.OrgKey, nil))
		if r := env.Do("GET", heldPath, a.Token, nil); r.Status != 200 || !bytes.Contains(r.Body, []byte("Subject: Held")) {
			t.Errorf("released message: %d %s", r.Status, r.Body)
		}
	})
}
