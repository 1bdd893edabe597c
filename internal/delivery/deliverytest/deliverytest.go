// Package deliverytest has the real servers outbound mail tests talk to: an
// authoritative DNS server on loopback (miekg/dns) for MX, A, DKIM and DMARC
// records, an SMTP sink (this project's smtpserver) that keeps what it
// accepts or answers with a chosen error, and a relay (smarthost) that
// requires AUTH PLAIN after STARTTLS.
package deliverytest

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/agentsvc/agentsvc/internal/dnstest"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

// Zone is a set of DNS records served by StartDNS (dnstest's zone).
type Zone = dnstest.Zone

// NewZone returns an empty zone.
func NewZone() *Zone { return dnstest.NewZone() }

// StartDNS serves z on 127.0.0.1 over UDP and TCP until the test ends and
// returns "host:port".
func StartDNS(t testing.TB, z *Zone) string { return dnstest.Start(t, z) }

// Received is a message the sink accepted.
type Received struct {
	MailFrom   string
	Recipients []string
	TLS        bool
	Raw        []byte
	// At is when the sink had the message, just before its 250 went out.
	At time.Time
}

// Sink is an SMTP server that keeps what it accepts.
type Sink struct {
	Addr string

	mu       sync.Mutex
	received []Received
	arrived  chan struct{}
	// reject, when set, answers RCPT for an address with an error
	// (smtpserver.ErrUnknownRecipient → 550, ErrOverQuota → 452).
	reject func(rcpt string) error
	// delay holds each message before its 250 (a slow receiver).
	delay time.Duration
}

// StartSink runs a sink with STARTTLS (self-signed) on 127.0.0.1 until the
// test ends.
func StartSink(t testing.TB) *Sink {
	t.Helper()
	s := &Sink{arrived: make(chan struct{}, 1)}
	tlsCfg, err := smtpserver.SelfSignedTLS("sink.test")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := smtpserver.New(smtpserver.Config{Hostname: "sink.test", TLS: tlsCfg, MaxConnsPerIP: 200, MaxConns: 400}, s)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return s
}

// Port is the sink's TCP port.
func (s *Sink) Port() int { return s.Addr2().Port }

// Addr2 is the sink's address as a *net.TCPAddr.
func (s *Sink) Addr2() *net.TCPAddr {
	a, _ := net.ResolveTCPAddr("tcp", s.Addr)
	return a
}

// Reject sets the RCPT answer per address (nil accepts).
func (s *Sink) Reject(fn func(rcpt string) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject = fn
}

// CheckRecipient implements smtpserver.Backend.
func (s *Sink) CheckRecipient(_ context.Context, rcpt string) error {
	s.mu.Lock()
	fn := s.reject
	s.mu.Unlock()
	if fn != nil {
		return fn(rcpt)
	}
	return nil
}

// SetDelay makes the sink wait d before accepting each message.
func (s *Sink) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Deliver implements smtpserver.Backend.
func (s *Sink) Deliver(ctx context.Context, env smtpserver.Envelope, raw []byte) error {
	s.mu.Lock()
	d := s.delay
	s.mu.Unlock()
	if d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.mu.Lock()
	s.received = append(s.received, Received{MailFrom: env.MailFrom, Recipients: env.Recipients, TLS: env.TLS,
		Raw: append([]byte(nil), raw...), At: time.Now()})
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}
	return nil
}

// Reset forgets what arrived and accepts everyone again.
func (s *Sink) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.received, s.reject = nil, nil
}

// Received returns what arrived so far.
func (s *Sink) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Wait waits until n messages arrived (or the timeout passed) and returns them.
func (s *Sink) Wait(t testing.TB, n int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if got := s.Received(); len(got) >= n {
			return got
		}
		select {
		case <-s.arrived:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("sink: %d of %d messages after %v", len(s.Received()), n, timeout)
		}
	}
}

// Relay is a smarthost that requires AUTH PLAIN, which it offers only after
// STARTTLS (go-smtp's default): a message arrives only from a client that
// upgraded and logged in with the right credentials.
type Relay struct {
	Addr string
	// TLS is the relay's certificate, for the client's root pool.
	TLS *tls.Config

	mu       sync.Mutex
	received []Received
	logins   []string // usernames that authenticated, one per session
	failures int      // rejected logins
}

// StartRelay runs a Relay on 127.0.0.1 until the test ends.
func StartRelay(t testing.TB, username, password string) *Relay {
	t.Helper()
	tlsCfg, err := smtpserver.SelfSignedTLS("relay.test")
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{TLS: tlsCfg}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &relaySession{r: r, user: username, pass: password, c: c}, nil
	}))
	srv.Domain = "relay.test"
	srv.ErrorLog = log.New(io.Discard, "", 0) // clients hanging up are expected
	srv.TLSConfig = tlsCfg
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return r
}

// Received returns what arrived so far.
func (r *Relay) Received() []Received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Received(nil), r.received...)
}

// Logins returns the usernames of successful logins and the number of
// rejected ones.
func (r *Relay) Logins() ([]string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.logins...), r.failures
}

type relaySession struct {
	r          *Relay
	c          *smtp.Conn
	user, pass string
	authed     bool
	from       string
	rcpts      []string
}

func (s *relaySession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *relaySession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		s.r.mu.Lock()
		defer s.r.mu.Unlock()
		if username != s.user || password != s.pass {
			s.r.failures++
			return smtp.ErrAuthFailed
		}
		s.authed = true
		s.r.logins = append(s.r.logins, username)
		return nil
	}), nil
}

func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpts = append(s.rcpts, to)
	return nil
}

func (s *relaySession) Data(rd io.Reader) error {
	raw, err := io.ReadAll(rd)
	if err != nil {
		return err
	}
	_, isTLS := s.c.TLSConnectionState()
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.received = append(s.r.received, Received{MailFrom: s.from, Recipients: s.rcpts, TLS: isTLS, Raw: raw, At: time.Now()})
	return nil
}

func (s *relaySession) Reset()        { s.from, s.rcpts = "", nil }
func (s *relaySession) Logout() error { return nil }
