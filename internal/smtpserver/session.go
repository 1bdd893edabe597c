package smtpserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-smtp"
)

// smtpBackend adapts Server to go-smtp's Backend.
type smtpBackend struct{ s *Server }

func (b smtpBackend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	tc := trackedOf(c.Conn())
	if tc == nil {
		// Every connection comes through guardListener; anything else is
		// a wiring bug, refused rather than served without limits.
		return nil, replyFor(errors.New("smtpserver: untracked connection"))
	}
	_, isTLS := c.TLSConnectionState()
	sess := &session{
		s:    b.s,
		conn: c,
		tc:   tc,
		tls:  isTLS,
		helo: c.Hostname(),
	}
	sess.log = b.s.log.With("remote", tc.RemoteAddr().String(), "helo", sess.helo, "tls", isTLS)
	return sess, nil
}

// trackedOf finds the trackedConn under a connection, which go-smtp
// replaces with a *tls.Conn after STARTTLS.
func trackedOf(c net.Conn) *trackedConn {
	for {
		switch v := c.(type) {
		case *trackedConn:
			return v
		case interface{ NetConn() net.Conn }:
			c = v.NetConn()
		default:
			return nil
		}
	}
}

// session is one SMTP session; go-smtp creates a new one after EHLO and
// again after STARTTLS. Its methods run on the connection's goroutine,
// except Data for BDAT, which go-smtp runs while the connection goroutine
// only feeds it chunks.
type session struct {
	s    *Server
	conn *smtp.Conn
	tc   *trackedConn
	log  *slog.Logger
	tls  bool
	helo string

	from  string
	utf8  bool
	rcpts []string
}

func (se *session) Reset() {
	se.from, se.utf8, se.rcpts = "", false, nil
	se.tc.inTxn.Store(false)
}

func (se *session) Logout() error {
	se.Reset()
	return nil
}

func (se *session) Mail(from string, opts *smtp.MailOptions) error {
	if n := se.tc.messages.Add(1); n > int64(se.s.cfg.MaxMessagesPerConn) {
		return se.reject("mail", ErrTooManyMessages, "from", from)
	}
	se.Reset()
	se.from = from
	se.utf8 = opts != nil && opts.UTF8
	se.tc.inTxn.Store(true)
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if se.tc.failedRcpts.Load() >= int64(se.s.cfg.MaxFailedRecipients) {
		// Whatever the address: any other answer would tell a prober
		// whether it exists.
		se.tc.hangUp.Store(true)
		return se.reject("rcpt", ErrTooManyFailedRecipients, "from", se.from, "rcpt", to)
	}
	for _, r := range se.rcpts {
		if strings.EqualFold(r, to) {
			return nil // a repeated RCPT adds nothing
		}
	}
	ctx, cancel := context.WithTimeout(se.s.baseCtx, se.s.cfg.CheckTimeout)
	defer cancel()
	if err := se.s.backend.CheckRecipient(ctx, to); err != nil {
		if errors.Is(err, ErrUnknownRecipient) || errors.Is(err, ErrRelayDenied) {
			// Only refusals that answer "is this address here?" count;
			// quota and temporary failures are not the client's doing.
			se.tc.failedRcpts.Add(1)
		}
		return se.reject("rcpt", se.shutdownAware(err), "from", se.from, "rcpt", to)
	}
	se.rcpts = append(se.rcpts, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	received := time.Now()
	env := Envelope{
		ID:         newTraceID(),
		RemoteIP:   net.IP(se.tc.ip.AsSlice()),
		Helo:       se.helo,
		MailFrom:   se.from,
		Recipients: append([]string(nil), se.rcpts...),
		TLS:        se.tls,
		UTF8:       se.utf8,
		ReceivedAt: received,
	}
	log := se.log.With("id", env.ID, "from", env.MailFrom, "rcpts", env.Recipients)

	var buf bytes.Buffer
	buf.WriteString(se.receivedHeader(env))
	header := buf.Len()
	dr := &deadlineReader{r: r, c: se.tc, idle: se.s.cfg.ReadTimeout, end: received.Add(se.s.cfg.DataTimeout)}
	// go-smtp stops at MaxMessageBytes too; the LimitReader keeps this
	// buffer bounded whatever reader go-smtp hands over (DATA or BDAT).
	n, err := buf.ReadFrom(io.LimitReader(dr, se.s.cfg.MaxMessageBytes+1))
	switch {
	case err != nil && isTimeout(err):
		return se.rejectWith(log, "data", ErrDataTimeout)
	case err != nil && (errors.Is(err, smtp.ErrDataTooLarge)):
		return se.rejectWith(log, "data", ErrMessageTooLarge, "bytes", n)
	case err != nil:
		return se.rejectWith(log, "data", err)
	case n > se.s.cfg.MaxMessageBytes:
		return se.rejectWith(log, "data", ErrMessageTooLarge, "bytes", n)
	}
	raw := buf.Bytes()

	ctx, cancel := context.WithTimeout(se.s.baseCtx, se.s.cfg.DeliverTimeout)
	defer cancel()
	start := time.Now()
	if err := se.s.backend.Deliver(ctx, env, raw); err != nil {
		return se.rejectWith(log, "deliver", se.shutdownAware(err), "bytes", len(raw)-header)
	}
	log.Info("smtp message accepted", "bytes", len(raw)-header, "deliver_ms", time.Since(start).Milliseconds())
	return nil
}

// shutdownAware reports a backend error caused by a forced shutdown as such.
func (se *session) shutdownAware(err error) error {
	if se.s.baseCtx.Err() != nil && errors.Is(err, context.Canceled) {
		return errors.Join(ErrShuttingDown, err)
	}
	return err
}

func (se *session) reject(stage string, err error, args ...any) error {
	return se.rejectWith(se.log, stage, err, args...)
}

// rejectWith logs the real cause and returns the client-safe reply.
func (se *session) rejectWith(log *slog.Logger, stage string, err error, args ...any) error {
	r := replyFor(err)
	level := slog.LevelInfo
	if r.Code/100 == 4 && !errors.Is(err, ErrOverQuota) && !errors.Is(err, ErrTooManyMessages) &&
		!errors.Is(err, ErrTooManyFailedRecipients) {
		level = slog.LevelWarn // a temporary failure on our side
	}
	log.Log(context.Background(), level, "smtp "+stage+" rejected",
		append(args, "code", r.Code, "err", err)...)
	return r
}

// deadlineReader extends the connection's read deadline before each read
// of message data: go-smtp sets it once per command, which would otherwise
// make ReadTimeout a bound on the whole transfer. The extension never goes
// beyond end, the DataTimeout of this message.
type deadlineReader struct {
	r    io.Reader
	c    *trackedConn
	idle time.Duration
	end  time.Time
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	dl := time.Now().Add(d.idle)
	if dl.After(d.end) {
		dl = d.end
	}
	_ = d.c.Conn.SetReadDeadline(dl)
	return d.r.Read(p)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
