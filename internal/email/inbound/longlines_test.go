package inbound_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestLongLinesStored: mail with long unwrapped lines (here 300 kB of HTML on
// one line, as some newsletter tools send it) is received through the whole
// pipeline and readable, not refused at the SMTP line limit.
func TestLongLinesStored(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("longlines", auth.EmailRead)
		line := "<p>" + strings.Repeat("word ", 60_000) + "the end marker</p>"
		msg := mail("news@letters.example", a.Address, "one long line", line,
			"Content-Type: text/html; charset=utf-8")
		// mail() writes its own text/plain Content-Type after the extra
		// headers; keep only the HTML one.
		msg = strings.Replace(msg, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n", "MIME-Version: 1.0\n", 1)
		since := time.Now()
		mustSend(t, env, "news@letters.example", []string{a.Address}, msg)
		sum := waitMessage(t, env, a, "letters.example", since)
		r := env.Must(200, env.Do("GET", "/api/v1/messages/"+sum["id"].(string), a.Token, nil))
		var m struct{ Subject, Text, HTML string }
		r.Decode(t, &m)
		if m.Subject != "one long line" || !strings.Contains(m.HTML, "the end marker") || !strings.Contains(m.Text, "the end marker") {
			t.Fatalf("message read back: subject %q, html %d bytes, text %d bytes, end marker missing", m.Subject, len(m.HTML), len(m.Text))
		}
	})
}
