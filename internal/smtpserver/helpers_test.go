package smtpserver

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

const localDomain = "agentsvc.test"

// memBackend is a real Backend that keeps messages in memory: a recipient
// is known when listed, any other address of the local domain is unknown,
// and other domains are relayed never.
type memBackend struct {
	mu        sync.Mutex
	known     map[string]bool
	overQuota map[string]bool
	delivered []delivery

	// deliverErr, when set, is returned by Deliver instead of storing.
	deliverErr error
	// gate, when set, makes Deliver wait for a value (or its context)
	// before storing; entered receives a value when Deliver starts.
	gate    chan struct{}
	entered chan struct{}
}

type delivery struct {
	env Envelope
	raw string
}

func newMemBackend(known ...string) *memBackend {
	b := &memBackend{known: map[string]bool{}, overQuota: map[string]bool{}}
	for _, k := range known {
		b.known[k] = true
	}
	return b
}

func (b *memBackend) CheckRecipient(_ context.Context, rcpt string) error {
	rcpt = strings.ToLower(rcpt)
	_, domain, _ := strings.Cut(rcpt, "@")
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case domain != localDomain:
		return ErrRelayDenied
	case b.overQuota[rcpt]:
		return ErrOverQuota
	case !b.known[rcpt]:
		return ErrUnknownRecipient
	}
	return nil
}

func (b *memBackend) Deliver(ctx context.Context, env Envelope, raw []byte) error {
	b.mu.Lock()
	gate, entered, derr := b.gate, b.entered, b.deliverErr
	b.mu.Unlock()
	if entered != nil {
		entered <- struct{}{}
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if derr != nil {
		return derr
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.delivered = append(b.delivered, delivery{env: env, raw: string(raw)})
	return nil
}

func (b *memBackend) messages() []delivery {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]delivery(nil), b.delivered...)
}

// take returns the delivered messages and forgets them.
func (b *memBackend) take() []delivery {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.delivered
	b.delivered = nil
	return d
}

// startServer runs a Server on a loopback port until the test ends.
func startServer(t *testing.T, cfg Config, b Backend) *Server {
	t.Helper()
	if cfg.Hostname == "" {
		cfg.Hostname = "mx." + localDomain
	}
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	s, err := New(cfg, b)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil && !errors.Is(err, ErrShuttingDown) {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return s
}

func dial(t *testing.T, s *Server) *smtp.Client {
	t.Helper()
	c, err := smtp.Dial(s.Addr().String())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.CommandTimeout = 10 * time.Second
	c.SubmissionTimeout = 10 * time.Second
	t.Cleanup(func() { c.Close() })
	if err := c.Hello("client.example"); err != nil {
		t.Fatalf("EHLO: %v", err)
	}
	return c
}

const testMessage = "From: Alice <alice@example.org>\r\n" +
	"To: agent@agentsvc.test\r\n" +
	"Subject: Hello\r\n" +
	"\r\n" +
	"Hi there.\r\n.leading dot survives\r\n"

// send runs one transaction and returns the error of the first step that
// failed.
func send(c *smtp.Client, from string, to []string, body string) error {
	if err := c.Mail(from, nil); err != nil {
		return err
	}
	for _, r := range to {
		if err := c.Rcpt(r, nil); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(body)); err != nil {
		return err
	}
	return w.Close()
}

// wantReply checks that err is the SMTP reply code and enhanced code.
func wantReply(t *testing.T, err error, code int, enh smtp.EnhancedCode) {
	t.Helper()
	var se *smtp.SMTPError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want SMTP reply %d %v", err, code, enh)
	}
	if se.Code != code || se.EnhancedCode != enh {
		t.Fatalf("got reply %d %v %q, want %d %v", se.Code, se.EnhancedCode, se.Message, code, enh)
	}
}

// rawConn is a line-level SMTP client for what the real client refuses to
// do (exceed limits, misbehave).
type rawConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dialRaw(t *testing.T, s *Server) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawConn{t: t, c: c, r: bufio.NewReader(c)}
}

// reply reads one (possibly multi-line) reply and returns its last line.
func (rc *rawConn) reply() string {
	rc.t.Helper()
	for {
		line, err := rc.r.ReadString('\n')
		if err != nil {
			rc.t.Fatalf("read reply: %v (partial %q)", err, line)
		}
		line = strings.TrimRight(line, "\r\n")
		if len(line) < 4 || line[3] != '-' {
			return line
		}
	}
}

func (rc *rawConn) cmd(line string) string {
	rc.t.Helper()
	if _, err := rc.c.Write([]byte(line + "\r\n")); err != nil {
		rc.t.Fatalf("write %q: %v", line, err)
	}
	return rc.reply()
}
