package smtpserver

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Config holds the listener's settings. Zero values take the defaults below;
// Validate reports every invalid setting at once.
type Config struct {
	// Addr is the TCP address Start listens on, for example ":25" or
	// "127.0.0.1:2525".
	Addr string
	// Hostname is this server's name in the greeting, EHLO reply and
	// Received header. Required.
	Hostname string
	// TLS enables STARTTLS when non-nil.
	TLS *tls.Config

	// MaxMessageBytes is advertised with SIZE and enforced on DATA and BDAT
	// (default 25 MiB).
	MaxMessageBytes int64
	// MaxRecipients per message (default 100, the minimum RFC 5321
	// section 4.5.3.1.8 asks servers to accept).
	MaxRecipients int
	// MaxMessagesPerConn bounds the transactions of one connection
	// (default 100), so one client cannot hold a slot forever.
	MaxMessagesPerConn int
	// MaxConnsPerIP bounds concurrent connections from one address
	// (default 10); MaxConns bounds all connections (default 1000).
	MaxConnsPerIP int
	MaxConns      int
	// MaxFailedRecipients bounds the RCPTs of one connection that the
	// Backend refuses as unknown (550 5.1.1) or not ours (550 5.7.1)
	// (default 20). The next RCPT, whatever its address, gets 421 4.7.0
	// and the connection is closed, so that a client cannot probe the
	// directory of addresses (directory harvesting) at full speed.
	MaxFailedRecipients int
	// MaxLineLength bounds one line of a command or of message data sent
	// with DATA: go-smtp applies a single limit to both (and none inside
	// BDAT chunks). The default, 1 MiB, is generous because real mail
	// carries long unwrapped lines (HTML on one line, base64 without
	// breaks) far beyond RFC 5321's 1000, and such mail must be stored,
	// not refused; MaxMessageBytes still bounds the message as a whole. A
	// command line costs at most this much memory per connection, much
	// less than the message buffer. It must be at least 8 KiB: go-smtp
	// counts the bytes of a BDAT chunk that it reads ahead with the BDAT
	// command (up to 4 KiB) against this limit, together with the command
	// line that follows the chunk.
	MaxLineLength int

	// ReadTimeout bounds the wait for each command and for each read of
	// message data (default 5 minutes, RFC 5321 section 4.5.3.2.7).
	ReadTimeout time.Duration
	// WriteTimeout bounds each reply write (default 1 minute).
	WriteTimeout time.Duration
	// DataTimeout bounds the whole transfer of one message (default 10
	// minutes), so a client trickling bytes cannot hold a session forever.
	DataTimeout time.Duration
	// CheckTimeout bounds Backend.CheckRecipient (default 30 s) and
	// DeliverTimeout bounds Backend.Deliver (default 5 minutes; clients
	// wait up to 10 minutes for the reply, RFC 5321 section 4.5.3.2.6).
	CheckTimeout   time.Duration
	DeliverTimeout time.Duration

	// Logger receives session events; nil discards them.
	Logger *slog.Logger
}

// Defaults for zero Config fields.
const (
	DefaultMaxMessageBytes     = 25 << 20
	DefaultMaxRecipients       = 100
	DefaultMaxMessagesPerConn  = 100
	DefaultMaxConnsPerIP       = 10
	DefaultMaxConns            = 1000
	DefaultMaxFailedRecipients = 20
	DefaultMaxLineLength       = 1 << 20
	DefaultReadTimeout         = 5 * time.Minute
	DefaultWriteTimeout        = time.Minute
	DefaultDataTimeout         = 10 * time.Minute
	DefaultCheckTimeout        = 30 * time.Second
	DefaultDeliverTimeout      = 5 * time.Minute
)

// MinMaxLineLength is the smallest MaxLineLength Validate accepts (see
// MaxLineLength).
const MinMaxLineLength = 8 << 10

// Validate reports every problem with c, joined.
func (c Config) Validate() error {
	var errs []error
	if c.Hostname == "" {
		errs = append(errs, errors.New("smtp: hostname is required"))
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"max message bytes", c.MaxMessageBytes},
		{"max recipients", int64(c.MaxRecipients)},
		{"max messages per connection", int64(c.MaxMessagesPerConn)},
		{"max connections per IP", int64(c.MaxConnsPerIP)},
		{"max connections", int64(c.MaxConns)},
		{"max failed recipients", int64(c.MaxFailedRecipients)},
		{"max line length", int64(c.MaxLineLength)},
		{"read timeout", int64(c.ReadTimeout)},
		{"write timeout", int64(c.WriteTimeout)},
		{"data timeout", int64(c.DataTimeout)},
		{"check timeout", int64(c.CheckTimeout)},
		{"deliver timeout", int64(c.DeliverTimeout)},
	} {
		if f.v < 0 {
			errs = append(errs, fmt.Errorf("smtp: %s must not be negative", f.name))
		}
	}
	if c.MaxLineLength > 0 && c.MaxLineLength < MinMaxLineLength {
		errs = append(errs, fmt.Errorf("smtp: max line length %d is below %d (RFC 5321 requires 1000, and go-smtp counts up to 4 KiB of a BDAT chunk read ahead with its command against the limit)", c.MaxLineLength, MinMaxLineLength))
	}
	if c.MaxMessageBytes > 1<<32-1 {
		// The SIZE parameter is parsed as a 32-bit number by go-smtp.
		errs = append(errs, fmt.Errorf("smtp: max message bytes %d exceeds 4 GiB", c.MaxMessageBytes))
	}
	if c.MaxConns > 0 && c.MaxConnsPerIP > c.MaxConns {
		errs = append(errs, fmt.Errorf("smtp: max connections per IP (%d) exceeds max connections (%d)", c.MaxConnsPerIP, c.MaxConns))
	}
	return errors.Join(errs...)
}

func (c Config) withDefaults() Config {
	setInt := func(p *int, d int) {
		if *p == 0 {
			*p = d
		}
	}
	setDur := func(p *time.Duration, d time.Duration) {
		if *p == 0 {
			*p = d
		}
	}
	if c.MaxMessageBytes == 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	setInt(&c.MaxRecipients, DefaultMaxRecipients)
	setInt(&c.MaxMessagesPerConn, DefaultMaxMessagesPerConn)
	setInt(&c.MaxConnsPerIP, DefaultMaxConnsPerIP)
	setInt(&c.MaxConns, DefaultMaxConns)
	if c.MaxConnsPerIP > c.MaxConns {
		// Only reachable through the per-IP default: Validate rejects an
		// explicit setting like this.
		c.MaxConnsPerIP = c.MaxConns
	}
	setInt(&c.MaxFailedRecipients, DefaultMaxFailedRecipients)
	setInt(&c.MaxLineLength, DefaultMaxLineLength)
	setDur(&c.ReadTimeout, DefaultReadTimeout)
	setDur(&c.WriteTimeout, DefaultWriteTimeout)
	setDur(&c.DataTimeout, DefaultDataTimeout)
	setDur(&c.CheckTimeout, DefaultCheckTimeout)
	setDur(&c.DeliverTimeout, DefaultDeliverTimeout)
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}
