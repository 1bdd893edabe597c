package inbound_test

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
)

// send delivers raw (LF line endings) over a real SMTP session to addr and
// returns the SMTP error (a *textproto.Error for a refusal).
func send(addr, from string, to []string, raw string) error {
	return apptest.SendMail(addr, from, to, strings.ReplaceAll(raw, "\n", "\r\n"))
}

func mustSend(t *testing.T, env *apptest.Env, from string, to []string, raw string) {
	t.Helper()
	if err := send(env.SMTPAddr(), from, to, raw); err != nil {
		t.Fatalf("send: %v", err)
	}
}

// smtpCode returns the reply code of an SMTP refusal, or 0.
func smtpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// mail builds a simple message.
func mail(from, to, subject, body string, headers ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%d.%s>\n", from, to, subject,
		time.Now().Format(time.RFC1123Z), time.Now().UnixNano(), "test@client.test")
	for _, h := range headers {
		b.WriteString(h + "\n")
	}
	b.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" + body + "\n")
	return b.String()
}

// waitMessage waits (through the wait endpoint) for mail from sender that
// arrived after since, and returns the message summary.
func waitMessage(t *testing.T, env *apptest.Env, a apptest.Agent, from string, since time.Time) map[string]any {
	t.Helper()
	r := env.Must(200, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/wait", a.Token,
		map[string]any{"from": from, "wait_seconds": 15, "since": since.UTC().Format(time.RFC3339Nano)}))
	m, _ := r.JSON()["message"].(map[string]any)
	if m == nil {
		t.Fatalf("no message from %s arrived: %s", from, r.Body)
	}
	return m
}

// waitStored polls the messages list until n messages are stored (used for
// quarantined mail, which wait does not return).
func waitStored(t *testing.T, env *apptest.Env, a apptest.Agent, n int) []any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/messages?limit=100", a.Token, nil))
		data := r.JSON()["data"].([]any)
		if len(data) >= n {
			return data
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d messages stored, want %d", len(data), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// storedBySubject waits until n messages are stored and returns their
// summaries keyed by subject.
func storedBySubject(t *testing.T, env *apptest.Env, a apptest.Agent, n int) map[string]map[string]any {
	t.Helper()
	by := map[string]map[string]any{}
	for _, x := range waitStored(t, env, a, n) {
		m := x.(map[string]any)
		by[m["subject"].(string)] = m
	}
	return by
}
