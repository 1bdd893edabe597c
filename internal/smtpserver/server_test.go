package smtpserver

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

func TestAcceptKnownRecipient(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{}, b)
	c := dial(t, s)
	if err := send(c, "alice@example.org", []string{"Agent@agentsvc.test"}, testMessage); err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := c.Quit(); err != nil {
		t.Fatalf("QUIT: %v", err)
	}
	msgs := b.messages()
	if len(msgs) != 1 {
		t.Fatalf("delivered %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if m.env.MailFrom != "alice@example.org" || len(m.env.Recipients) != 1 || m.env.Recipients[0] != "Agent@agentsvc.test" {
		t.Errorf("envelope from=%q rcpts=%v", m.env.MailFrom, m.env.Recipients)
	}
	if m.env.Helo != "client.example" || !m.env.RemoteIP.Equal(net.ParseIP("127.0.0.1")) || m.env.TLS {
		t.Errorf("envelope helo=%q ip=%v tls=%v", m.env.Helo, m.env.RemoteIP, m.env.TLS)
	}
	if m.env.ID == "" || time.Since(m.env.ReceivedAt) > time.Minute {
		t.Errorf("envelope id=%q received=%v", m.env.ID, m.env.ReceivedAt)
	}
	// The trace header comes first, then the message exactly as sent
	// (dot-unstuffed, CRLF kept).
	hdr, rest, ok := strings.Cut(m.raw, "\r\nFrom: Alice")
	if !ok || "From: Alice"+rest != testMessage {
		t.Fatalf("stored message does not end with the sent one:\n%s", m.raw)
	}
	for _, want := range []string{
		"Received: from client.example ([127.0.0.1])",
		"by mx.agentsvc.test (agentsvc) with ESMTP id " + m.env.ID,
		"for <Agent@agentsvc.test>;",
	} {
		if !strings.Contains(hdr, want) {
			t.Errorf("Received header lacks %q:\n%s", want, hdr)
		}
	}
}

func TestRecipientChecks(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	b.overQuota["full@agentsvc.test"] = true
	s := startServer(t, Config{}, b)
	tests := []struct {
		rcpt string
		code int
		enh  smtp.EnhancedCode
	}{
		{"nobody@agentsvc.test", 550, smtp.EnhancedCode{5, 1, 1}},
		{"victim@example.com", 550, smtp.EnhancedCode{5, 7, 1}},
		{"agent@agentsvc.test.example.com", 550, smtp.EnhancedCode{5, 7, 1}},
		{"full@agentsvc.test", 452, smtp.EnhancedCode{4, 2, 2}},
	}
	c := dial(t, s)
	for _, tc := range tests {
		t.Run(tc.rcpt, func(t *testing.T) {
			if err := c.Mail("alice@example.org", nil); err != nil {
				t.Fatalf("MAIL: %v", err)
			}
			wantReply(t, c.Rcpt(tc.rcpt, nil), tc.code, tc.enh)
			// Without an accepted recipient there is nothing to send.
			if _, err := c.Data(); err == nil {
				t.Fatal("DATA accepted without recipients")
			}
			if err := c.Reset(); err != nil {
				t.Fatalf("RSET: %v", err)
			}
		})
	}
	if n := len(b.messages()); n != 0 {
		t.Errorf("%d messages delivered, want none", n)
	}
}

// A message to a known and a foreign recipient reaches only the known one:
// the server never relays.
func TestNoRelayInMixedRecipients(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{}, b)
	c := dial(t, s)
	if err := c.Mail("spammer@example.net", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("agent@agentsvc.test", nil); err != nil {
		t.Fatal(err)
	}
	wantReply(t, c.Rcpt("victim@example.com", nil), 550, smtp.EnhancedCode{5, 7, 1})
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, testMessage)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	msgs := b.messages()
	if len(msgs) != 1 || len(msgs[0].env.Recipients) != 1 || msgs[0].env.Recipients[0] != "agent@agentsvc.test" {
		t.Fatalf("delivered %+v, want one message to agent@ only", msgs)
	}
}

func TestSizeLimit(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{MaxMessageBytes: 2048}, b)
	c := dial(t, s)
	if ok, v := c.Extension("SIZE"); !ok || v != "2048" {
		t.Fatalf("SIZE extension = %v %q, want 2048", ok, v)
	}
	// Declared too large: refused at MAIL.
	wantReply(t, c.Mail("alice@example.org", &smtp.MailOptions{Size: 4096}), 552, smtp.EnhancedCode{5, 3, 4})
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	// Undeclared and too large: refused after DATA.
	big := testMessage + strings.Repeat("x", 78) + "\r\n"
	big = big + strings.Repeat(strings.Repeat("y", 78)+"\r\n", 100)
	wantReply(t, send(c, "alice@example.org", []string{"agent@agentsvc.test"}, big), 552, smtp.EnhancedCode{5, 3, 4})
	// The session is still in step: a message within the limit passes.
	if err := send(c, "alice@example.org", []string{"agent@agentsvc.test"}, testMessage); err != nil {
		t.Fatalf("send after refusal: %v", err)
	}
	if msgs := b.messages(); len(msgs) != 1 || !strings.HasSuffix(msgs[0].raw, testMessage) {
		t.Fatalf("delivered %d messages, want only the small one", len(msgs))
	}
}

func TestStartTLS(t *testing.T) {
	tlsCfg, err := SelfSignedTLS("mx.agentsvc.test")
	if err != nil {
		t.Fatal(err)
	}
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{TLS: tlsCfg}, b)
	if ok, _ := dial(t, s).Extension("STARTTLS"); !ok {
		t.Fatal("STARTTLS not advertised")
	}
	pool := x509.NewCertPool()
	pool.AddCert(tlsCfg.Certificates[0].Leaf)
	// The client verifies the self-signed certificate against its name.
	c, err := smtp.DialStartTLS(s.Addr().String(), &tls.Config{RootCAs: pool, ServerName: "mx.agentsvc.test"})
	if err != nil {
		t.Fatalf("STARTTLS: %v", err)
	}
	defer c.Close()
	if err := send(c, "alice@example.org", []string{"agent@agentsvc.test"}, testMessage); err != nil {
		t.Fatalf("send over TLS: %v", err)
	}
	if state, ok := c.TLSConnectionState(); !ok || !state.HandshakeComplete {
		t.Fatal("connection is not encrypted after STARTTLS")
	}
	msgs := b.messages()
	if len(msgs) != 1 || !msgs[0].env.TLS {
		t.Fatalf("delivered %+v, want one message marked TLS", msgs)
	}
	if !strings.Contains(msgs[0].raw, "with ESMTPS id") || !strings.Contains(msgs[0].raw, "(using TLS") {
		t.Errorf("Received header does not record TLS:\n%s", msgs[0].raw)
	}

	// Without a TLS config STARTTLS is neither offered nor accepted.
	plain := startServer(t, Config{}, b)
	pc := dial(t, plain)
	if ok, _ := pc.Extension("STARTTLS"); ok {
		t.Fatal("STARTTLS advertised without a certificate")
	}
}

func TestPerIPConnectionLimit(t *testing.T) {
	s := startServer(t, Config{MaxConnsPerIP: 2}, newMemBackend())
	first := dialRaw(t, s)
	if r := first.reply(); !strings.HasPrefix(r, "220 ") {
		t.Fatalf("greeting %q", r)
	}
	second := dialRaw(t, s)
	if r := second.reply(); !strings.HasPrefix(r, "220 ") {
		t.Fatalf("greeting %q", r)
	}
	third := dialRaw(t, s)
	if r := third.reply(); !strings.HasPrefix(r, "421 4.7.0 ") {
		t.Fatalf("third connection got %q, want 421 4.7.0", r)
	}
	if _, err := third.r.ReadByte(); err != io.EOF {
		t.Fatalf("refused connection still open: %v", err)
	}
	// A closed connection frees its slot.
	if r := first.cmd("QUIT"); !strings.HasPrefix(r, "221 ") {
		t.Fatalf("QUIT: %q", r)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		again := dialRaw(t, s)
		r := again.reply()
		if strings.HasPrefix(r, "220 ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("slot not released: %q", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTotalConnectionLimit(t *testing.T) {
	s := startServer(t, Config{MaxConns: 1, MaxConnsPerIP: 1}, newMemBackend())
	first := dialRaw(t, s)
	first.reply()
	second := dialRaw(t, s)
	if r := second.reply(); !strings.HasPrefix(r, "421 4.") {
		t.Fatalf("second connection got %q, want 421", r)
	}
}

// The 250 reply must not come before Deliver has returned.
func TestReplyOnlyAfterDeliver(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	b.gate = make(chan struct{})
	b.entered = make(chan struct{}, 1)
	s := startServer(t, Config{}, b)
	c := dial(t, s)
	done := make(chan error, 1)
	go func() { done <- send(c, "alice@example.org", []string{"agent@agentsvc.test"}, testMessage) }()
	select {
	case <-b.entered:
	case err := <-done:
		t.Fatalf("transaction ended before Deliver started: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Deliver never called")
	}
	select {
	case err := <-done:
		t.Fatalf("client got its reply (%v) while Deliver was still running", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(b.gate)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("send: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no reply after Deliver returned")
	}
	if len(b.messages()) != 1 {
		t.Fatal("message not stored")
	}
}

func TestDeliverErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code int
		enh  smtp.EnhancedCode
	}{
		{"plain error is temporary", errors.New("disk full: /var/lib/secret/path"), 451, smtp.EnhancedCode{4, 3, 0}},
		{"wrapped quota", errors.Join(errors.New("org quota"), ErrOverQuota), 452, smtp.EnhancedCode{4, 2, 2}},
		{"permanent", Permanent(errors.New("malformed beyond repair")), 554, smtp.EnhancedCode{5, 0, 0}},
		{"timeout", context.DeadlineExceeded, 451, smtp.EnhancedCode{4, 4, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newMemBackend("agent@agentsvc.test")
			b.deliverErr = tc.err
			s := startServer(t, Config{}, b)
			c := dial(t, s)
			err := send(c, "alice@example.org", []string{"agent@agentsvc.test"}, testMessage)
			wantReply(t, err, tc.code, tc.enh)
			var se *smtp.SMTPError
			errors.As(err, &se)
			if strings.Contains(se.Message, "secret") || strings.Contains(se.Message, "org quota") {
				t.Errorf("reply leaks the internal error: %q", se.Message)
			}
			if len(b.messages()) != 0 {
				t.Error("message stored despite the error")
			}
		})
	}
}

func TestPerConnectionLimits(t *testing.T) {
	b := newMemBackend("a@agentsvc.test", "b@agentsvc.test", "c@agentsvc.test")
	s := startServer(t, Config{MaxRecipients: 2, MaxMessagesPerConn: 2}, b)
	c := dial(t, s)
	if err := c.Mail("alice@example.org", nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"a@agentsvc.test", "b@agentsvc.test"} {
		if err := c.Rcpt(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	wantReply(t, c.Rcpt("c@agentsvc.test", nil), 452, smtp.EnhancedCode{4, 5, 3})
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	// MAIL of the first transaction counted; one more is allowed.
	if err := send(c, "alice@example.org", []string{"a@agentsvc.test"}, testMessage); err != nil {
		t.Fatal(err)
	}
	wantReply(t, c.Mail("alice@example.org", nil), 451, smtp.EnhancedCode{4, 7, 0})
}

func TestReadTimeout(t *testing.T) {
	s := startServer(t, Config{ReadTimeout: 200 * time.Millisecond}, newMemBackend())
	rc := dialRaw(t, s)
	rc.reply()
	// Say nothing: the server gives up with 421 and closes.
	if r := rc.reply(); !strings.HasPrefix(r, "421 4.4.2") {
		t.Fatalf("got %q, want 421 4.4.2", r)
	}
}

// A client that stops in the middle of DATA is cut off by the read timeout,
// and nothing is delivered.
func TestStalledData(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{ReadTimeout: 300 * time.Millisecond}, b)
	rc := dialRaw(t, s)
	rc.reply()
	rc.cmd("EHLO client.example")
	rc.cmd("MAIL FROM:<alice@example.org>")
	rc.cmd("RCPT TO:<agent@agentsvc.test>")
	if r := rc.cmd("DATA"); !strings.HasPrefix(r, "354") {
		t.Fatalf("DATA: %q", r)
	}
	rc.c.Write([]byte("Subject: half\r\n\r\nand then silence"))
	if r := rc.reply(); !strings.HasPrefix(r, "421 4.4.2") {
		t.Fatalf("got %q, want 421 4.4.2", r)
	}
	if len(b.messages()) != 0 {
		t.Fatal("partial message delivered")
	}
}

func TestReceivedHeaderSanitized(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	s := startServer(t, Config{}, b)
	rc := dialRaw(t, s)
	rc.reply()
	rc.cmd("HELO evil(host);X-Injected:yes")
	rc.cmd("MAIL FROM:<>")
	rc.cmd("RCPT TO:<agent@agentsvc.test>")
	rc.cmd("DATA")
	if r := rc.cmd("Subject: x\r\n\r\nbody\r\n."); !strings.HasPrefix(r, "250 ") {
		t.Fatalf("end of data: %q", r)
	}
	msgs := b.messages()
	if len(msgs) != 1 {
		t.Fatal("not delivered")
	}
	hdr, _, _ := strings.Cut(msgs[0].raw, "Subject: x")
	if !strings.HasPrefix(hdr, "Received: from evil_host__X-Injected:yes ([127.0.0.1])") {
		t.Errorf("unexpected Received header:\n%s", hdr)
	}
	if msgs[0].env.MailFrom != "" {
		t.Errorf("null sender became %q", msgs[0].env.MailFrom)
	}
}

func TestConfigValidate(t *testing.T) {
	err := Config{MaxMessageBytes: -1, ReadTimeout: -time.Second, MaxLineLength: 100}.Validate()
	if err == nil {
		t.Fatal("invalid config accepted")
	}
	for _, want := range []string{"hostname", "max message bytes", "read timeout", "line length"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if err := (Config{Hostname: "mx.example"}).Validate(); err != nil {
		t.Errorf("minimal config: %v", err)
	}
}
