package smtpserver

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"
)

// message returns a message of exactly size bytes (as counted by SIZE, DATA
// and BDAT: the content up to and including its last CRLF) whose body is
// one line of x's, as long as the size allows.
func message(size int) string {
	const head = "From: alice@example.org\r\nTo: agent@agentsvc.test\r\nSubject: long line\r\n\r\n"
	return head + strings.Repeat("x", size-len(head)-2) + "\r\n"
}

// sendDATA sends body with DATA over rc (the envelope already given) and
// returns the final reply.
func (rc *rawConn) sendDATA(body string) string {
	rc.t.Helper()
	if r := rc.cmd("DATA"); !strings.HasPrefix(r, "354") {
		rc.t.Fatalf("DATA: %q", r)
	}
	// Dot-stuffing (RFC 5321 section 4.5.2).
	stuffed := strings.ReplaceAll("\r\n"+body, "\r\n.", "\r\n..")[2:]
	if _, err := io.WriteString(rc.c, stuffed+".\r\n"); err != nil {
		rc.t.Fatalf("write data: %v", err)
	}
	return rc.reply()
}

// sendBDAT sends body as one BDAT LAST chunk, command and chunk in one
// write as a pipelining client does, and returns the reply.
func (rc *rawConn) sendBDAT(body string) string {
	rc.t.Helper()
	if _, err := fmt.Fprintf(rc.c, "BDAT %d LAST\r\n%s", len(body), body); err != nil {
		rc.t.Fatalf("write BDAT: %v", err)
	}
	return rc.reply()
}

// envelope greets and opens a transaction to agent@agentsvc.test.
func (rc *rawConn) envelope() {
	rc.t.Helper()
	for _, c := range []string{"MAIL FROM:<alice@example.org>", "RCPT TO:<agent@agentsvc.test>"} {
		if r := rc.cmd(c); !strings.HasPrefix(r, "250 ") {
			rc.t.Fatalf("%s: %q", c, r)
		}
	}
}

func dialEHLO(t *testing.T, s *Server) *rawConn {
	t.Helper()
	rc := dialRaw(t, s)
	rc.reply()
	if r := rc.cmd("EHLO client.example"); !strings.HasPrefix(r, "250 ") {
		t.Fatalf("EHLO: %q", r)
	}
	return rc
}

// Real mail carries long unwrapped lines (HTML on one line, base64 without
// breaks); they are stored, whether they come with DATA or BDAT, and the
// session goes on.
func TestLongLinesAccepted(t *testing.T) {
	for _, tc := range []struct {
		name string
		send func(*rawConn, string) string
	}{
		{"DATA", (*rawConn).sendDATA},
		{"BDAT", (*rawConn).sendBDAT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newMemBackend("agent@agentsvc.test")
			s := startServer(t, Config{}, b)
			rc := dialEHLO(t, s)
			body := message(300_000) // one line of about 300 kB
			rc.envelope()
			if r := tc.send(rc, body); !strings.HasPrefix(r, "250 2.0.0") {
				t.Fatalf("long line: %q, want 250", r)
			}
			rc.envelope()
			if r := tc.send(rc, testMessage); !strings.HasPrefix(r, "250 2.0.0") {
				t.Fatalf("next message in the session: %q, want 250", r)
			}
			msgs := b.messages()
			if len(msgs) != 2 || !strings.HasSuffix(msgs[0].raw, "\r\n\r\n"+body[strings.Index(body, "\r\n\r\n")+4:]) {
				t.Fatalf("delivered %d messages; the long one was not stored intact", len(msgs))
			}
		})
	}
}

// A line beyond MaxLineLength gets a permanent refusal: a temporary one
// would make the sender retry the same message for days.
func TestTooLongLineRefusedPermanently(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{MaxLineLength: 10_000}, b)
	rc := dialEHLO(t, s)
	rc.envelope()
	r := rc.sendDATA(message(50_000))
	if !strings.HasPrefix(r, "552 5.3.4 ") {
		t.Fatalf("line over the limit: %q, want 552 5.3.4", r)
	}
	if len(b.messages()) != 0 {
		t.Fatal("message with a line over the limit delivered")
	}
}

// Refused recipients are budgeted per connection, so that a client cannot
// probe a directory of addresses at full speed (directory harvesting).
func TestFailedRecipientBudget(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{MaxFailedRecipients: 3}, b)
	rc := dialEHLO(t, s)
	if r := rc.cmd("MAIL FROM:<probe@example.net>"); !strings.HasPrefix(r, "250 ") {
		t.Fatalf("MAIL: %q", r)
	}
	for i, rcpt := range []string{"a@agentsvc.test", "victim@example.com", "b@agentsvc.test"} {
		if r := rc.cmd("RCPT TO:<" + rcpt + ">"); !strings.HasPrefix(r, "550 ") {
			t.Fatalf("refused RCPT %d: %q, want 550", i+1, r)
		}
	}
	// Budget spent: even a known address now ends the connection, so the
	// answer tells a prober nothing.
	if r := rc.cmd("RCPT TO:<agent@agentsvc.test>"); !strings.HasPrefix(r, "421 4.7.0 ") {
		t.Fatalf("RCPT after the budget: %q, want 421 4.7.0", r)
	}
	if line, err := rc.r.ReadString('\n'); err != io.EOF {
		t.Fatalf("connection still open after 421: read %q, %v", line, err)
	}

	// Accepted recipients and other connections are not affected.
	c := dial(t, s)
	for i := 0; i < 2; i++ {
		if err := c.Mail("alice@example.org", nil); err != nil {
			t.Fatal(err)
		}
		wantReply(t, c.Rcpt("nobody@agentsvc.test", nil), 550, smtp.EnhancedCode{5, 1, 1})
		if err := c.Rcpt("agent@agentsvc.test", nil); err != nil {
			t.Fatalf("known recipient within the budget: %v", err)
		}
		if err := c.Reset(); err != nil {
			t.Fatal(err)
		}
	}
}

// The budget is per connection: STARTTLS, which starts a new session, does
// not reset it, and the connection is closed under TLS as well.
func TestFailedRecipientBudgetAcrossStartTLS(t *testing.T) {
	tlsCfg, err := SelfSignedTLS("mx.agentsvc.test")
	if err != nil {
		t.Fatal(err)
	}
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{TLS: tlsCfg, MaxFailedRecipients: 3}, b)
	rc := dialEHLO(t, s)
	rc.cmd("MAIL FROM:<probe@example.net>")
	for _, r := range []string{"a@agentsvc.test", "b@agentsvc.test"} {
		if got := rc.cmd("RCPT TO:<" + r + ">"); !strings.HasPrefix(got, "550 5.1.1 ") {
			t.Fatalf("RCPT %s: %q", r, got)
		}
	}
	if r := rc.cmd("STARTTLS"); !strings.HasPrefix(r, "220 ") {
		t.Fatalf("STARTTLS: %q", r)
	}
	tc := tls.Client(rc.c, &tls.Config{InsecureSkipVerify: true})
	rc.c, rc.r = tc, bufio.NewReader(tc)
	if r := rc.cmd("EHLO client.example"); !strings.HasPrefix(r, "250 ") {
		t.Fatalf("EHLO over TLS: %q", r)
	}
	rc.cmd("MAIL FROM:<probe@example.net>")
	if r := rc.cmd("RCPT TO:<c@agentsvc.test>"); !strings.HasPrefix(r, "550 5.1.1 ") {
		t.Fatalf("third refused RCPT: %q", r)
	}
	// Pipelined: the RCPT over the budget and a command behind it. Only the
	// 421 comes back; the buffered command is not served.
	io.WriteString(rc.c, "RCPT TO:<agent@agentsvc.test>\r\nNOOP\r\n")
	if r := rc.reply(); !strings.HasPrefix(r, "421 4.7.0 ") {
		t.Fatalf("RCPT after the budget: %q, want 421 4.7.0", r)
	}
	if line, err := rc.r.ReadString('\n'); err == nil {
		t.Fatalf("connection still open after 421: read %q", line)
	}
}

func TestFailedRecipientBudgetConfig(t *testing.T) {
	err := Config{Hostname: "mx.example", MaxFailedRecipients: -1}.Validate()
	if err == nil || !strings.Contains(err.Error(), "max failed recipients") {
		t.Fatalf("negative MaxFailedRecipients: %v", err)
	}
}
