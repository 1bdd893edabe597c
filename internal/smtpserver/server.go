package smtpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
)

// Backend is what the server needs from the mail domain.
type Backend interface {
	// CheckRecipient is called at RCPT TO. Return ErrUnknownRecipient
	// (550 5.1.1), ErrRelayDenied for a non-local domain (550 5.7.1),
	// ErrOverQuota (452 4.2.2), or nil to accept. Any other error is a
	// temporary failure (451 4.3.0).
	CheckRecipient(ctx context.Context, rcpt string) error
	// Deliver must make the message durable before returning nil; only
	// then does the client get 250. An error is a temporary failure
	// (451 4.3.0) unless wrapped with Permanent (554 5.0.0) or one of the
	// errors above; ErrOverQuota gives 452 4.2.2. raw is a fresh buffer
	// per message that the server never touches again: the backend may
	// keep it after returning (the inbound pipeline hands it to a worker).
	Deliver(ctx context.Context, env Envelope, raw []byte) error
}

// Envelope is what the SMTP transaction says about a message, beside its
// content.
type Envelope struct {
	// ID is the trace id this server gave the message, also in its
	// Received header and the logs.
	ID       string
	RemoteIP net.IP
	Helo     string
	// MailFrom is the reverse path; empty for the null sender (bounces).
	MailFrom string
	// Recipients are the accepted RCPT TO addresses, without duplicates.
	Recipients []string
	// TLS is true when the message came over STARTTLS.
	TLS bool
	// UTF8 is true when the client declared SMTPUTF8 (RFC 6531).
	UTF8       bool
	ReceivedAt time.Time
}

// Server is an inbound SMTP server.
type Server struct {
	cfg     Config
	backend Backend
	log     *slog.Logger
	smtp    *smtp.Server

	// baseCtx is the parent of every backend call; it is cancelled when a
	// shutdown runs out of time.
	baseCtx    context.Context
	cancelBase context.CancelFunc

	mu       sync.Mutex
	perIP    map[netip.Addr]int
	conns    map[*trackedConn]struct{}
	draining bool
	addr     net.Addr
	serving  sync.WaitGroup
}

// New checks cfg and returns a server that is not yet listening.
func New(cfg Config, b Backend) (*Server, error) {
	if b == nil {
		return nil, errors.New("smtp: backend is required")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:     cfg,
		backend: b,
		log:     cfg.Logger,
		perIP:   map[netip.Addr]int{},
		conns:   map[*trackedConn]struct{}{},
	}
	s.baseCtx, s.cancelBase = context.WithCancel(context.Background())

	ss := smtp.NewServer(smtpBackend{s})
	ss.Domain = cfg.Hostname
	ss.TLSConfig = cfg.TLS
	ss.MaxMessageBytes = cfg.MaxMessageBytes
	ss.MaxRecipients = cfg.MaxRecipients
	ss.MaxLineLength = cfg.MaxLineLength
	ss.ReadTimeout = cfg.ReadTimeout
	ss.WriteTimeout = cfg.WriteTimeout
	ss.EnableSMTPUTF8 = true
	ss.ErrorLog = logAdapter{s.log}
	s.smtp = ss
	return s, nil
}

// Start listens on cfg.Addr and serves in the background until Shutdown.
func (s *Server) Start(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("smtp: listen on %s: %w", s.cfg.Addr, err)
	}
	s.mu.Lock()
	s.addr = ln.Addr()
	s.mu.Unlock()
	go func() {
		if err := s.Serve(ln); err != nil {
			s.log.Error("smtp server stopped", "err", err)
		}
	}()
	return nil
}

// Serve accepts connections on ln until Shutdown and returns nil then. It
// is the entry point for tests and benchmarks that bring their own listener.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		ln.Close()
		return ErrShuttingDown
	}
	if s.addr == nil {
		s.addr = ln.Addr()
	}
	s.serving.Add(1)
	s.mu.Unlock()
	defer s.serving.Done()
	s.log.Info("smtp server listening", "addr", ln.Addr().String(), "starttls", s.cfg.TLS != nil)
	err := s.smtp.Serve(&guardListener{Listener: ln, s: s})
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Addr returns the address of the (first) listener, or nil before Start or
// Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Shutdown stops accepting connections, ends idle sessions with a 421
// reply, and waits for transactions in flight to finish. When ctx ends
// first, it closes the remaining connections, cancels running backend calls
// and returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return ErrShuttingDown
	}
	s.draining = true
	for c := range s.conns {
		c.wakeIfIdle()
	}
	s.mu.Unlock()

	err := s.smtp.Shutdown(ctx)
	if err == nil || errors.Is(err, net.ErrClosed) {
		s.cancelBase()
		return nil
	}
	// Out of time: go-smtp's Close is a no-op after Shutdown, so the
	// connections are closed here.
	s.cancelBase()
	s.mu.Lock()
	for c := range s.conns {
		c.Conn.Close()
	}
	s.mu.Unlock()
	return err
}

func (s *Server) isDraining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draining
}

// admit decides whether a new connection may proceed, and counts it.
func (s *Server) admit(c net.Conn) (*trackedConn, *smtp.SMTPError) {
	ip := remoteAddr(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.draining:
		return nil, replyShuttingDown
	case len(s.conns) >= s.cfg.MaxConns:
		return nil, replyTooManyConns
	case s.perIP[ip] >= s.cfg.MaxConnsPerIP:
		return nil, replyTooManyFromIP
	}
	tc := &trackedConn{Conn: c, s: s, ip: ip}
	s.perIP[ip]++
	s.conns[tc] = struct{}{}
	return tc, nil
}

func (s *Server) release(c *trackedConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[c]; !ok {
		return
	}
	delete(s.conns, c)
	if s.perIP[c.ip]--; s.perIP[c.ip] <= 0 {
		delete(s.perIP, c.ip)
	}
}

// refuse answers a connection that is over a limit and closes it. Only a
// short write deadline is spent on it: a refused client gets no more time.
func (s *Server) refuse(c net.Conn, r *smtp.SMTPError) {
	defer c.Close()
	s.log.Info("smtp connection refused", "remote", c.RemoteAddr().String(), "code", r.Code, "reason", r.Message)
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = fmt.Fprintf(c, "%d %d.%d.%d %s %s\r\n", r.Code,
		r.EnhancedCode[0], r.EnhancedCode[1], r.EnhancedCode[2], s.cfg.Hostname, r.Message)
}

func remoteAddr(c net.Conn) netip.Addr {
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		return ap.Addr().Unmap()
	}
	// Not TCP (a pipe in tests): all such connections share one bucket.
	return netip.Addr{}
}

// guardListener applies the connection limits before go-smtp sees a
// connection, so a refused client costs no session.
type guardListener struct {
	net.Listener
	s *Server
}

func (l *guardListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		tc, refusal := l.s.admit(c)
		if refusal == nil {
			return tc, nil
		}
		go l.s.refuse(c, refusal)
	}
}

// trackedConn is an accepted connection counted against the limits until it
// is closed. It also knows whether its session is inside a transaction, so
// that a shutdown can end idle sessions without cutting off a message.
type trackedConn struct {
	net.Conn
	s     *Server
	ip    netip.Addr
	once  sync.Once
	inTxn atomic.Bool
	// messages counts MAIL commands and failedRcpts refused RCPTs over
	// the whole connection (sessions are replaced on STARTTLS; the limits
	// are per connection).
	messages    atomic.Int64
	failedRcpts atomic.Int64
	// hangUp is set when the reply being written ends the connection
	// (421): go-smtp keeps reading commands after any reply it is given.
	hangUp atomic.Bool
}

func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.s.release(c) })
	return err
}

// SetReadDeadline is how go-smtp starts waiting for the next command. While
// the server drains, an idle session gets a deadline in the past, so that
// go-smtp answers 421 and closes it at once instead of waiting for the
// client.
//
// After a reply that ends the connection, it closes the connection instead:
// go-smtp has flushed that reply by now, and stops at the error without
// another word (net.ErrClosed), even with pipelined commands buffered.
func (c *trackedConn) SetReadDeadline(t time.Time) error {
	if c.hangUp.Load() {
		c.Close()
		return net.ErrClosed
	}
	if !c.inTxn.Load() && c.s.isDraining() {
		t = time.Unix(1, 0)
	}
	return c.Conn.SetReadDeadline(t)
}

// wakeIfIdle interrupts a read blocked waiting for the next command of an
// idle session. Called with s.mu held.
func (c *trackedConn) wakeIfIdle() {
	if !c.inTxn.Load() {
		_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
	}
}

// logAdapter sends go-smtp's internal messages to slog.
type logAdapter struct{ l *slog.Logger }

func (a logAdapter) Printf(format string, v ...any) { a.log(fmt.Sprintf(format, v...)) }
func (a logAdapter) Println(v ...any)               { a.log(strings.TrimSpace(fmt.Sprintln(v...))) }

func (a logAdapter) log(msg string) {
	if strings.Contains(msg, "panic") {
		// go-smtp recovers panics in command handlers; they are bugs.
		a.l.Error("smtp: "+msg, "panic", true)
		return
	}
	a.l.Info("smtp: " + msg)
}
