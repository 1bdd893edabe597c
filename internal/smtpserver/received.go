package smtpserver

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/base32"
	"strings"
	"time"
)

// receivedHeader builds the trace field RFC 5321 section 4.4 requires a
// receiving server to prepend. Everything that came from the client is
// sanitized: a CR LF in it could otherwise inject header fields.
func (se *session) receivedHeader(env Envelope) string {
	var b strings.Builder
	b.WriteString("Received: from ")
	b.WriteString(sanitizeHelo(env.Helo))
	b.WriteString(" (")
	b.WriteString(addressLiteral(env))
	b.WriteString(")\r\n\tby ")
	b.WriteString(sanitizeHelo(se.s.cfg.Hostname))
	b.WriteString(" (agentsvc) with ")
	b.WriteString(protocol(env))
	b.WriteString(" id ")
	b.WriteString(env.ID)
	if state, ok := se.conn.TLSConnectionState(); ok {
		b.WriteString("\r\n\t(using ")
		b.WriteString(tls.VersionName(state.Version))
		b.WriteString(" with cipher ")
		b.WriteString(tls.CipherSuiteName(state.CipherSuite))
		b.WriteString(")")
	}
	// Naming the recipient only when there is one keeps the other
	// recipients of a message private (the common practice).
	if len(env.Recipients) == 1 && isPrintable(env.Recipients[0]) {
		b.WriteString("\r\n\tfor <")
		b.WriteString(env.Recipients[0])
		b.WriteString(">")
	}
	b.WriteString(";\r\n\t")
	b.WriteString(env.ReceivedAt.Format(time.RFC1123Z))
	b.WriteString("\r\n")
	return b.String()
}

// protocol is the WITH keyword of RFC 3848 and RFC 6531.
func protocol(env Envelope) string {
	p := "ESMTP"
	if env.UTF8 {
		p = "UTF8SMTP"
	}
	if env.TLS {
		p += "S"
	}
	return p
}

func addressLiteral(env Envelope) string {
	ip := env.RemoteIP
	if ip == nil {
		return "unknown"
	}
	if ip.To4() != nil {
		return "[" + ip.String() + "]"
	}
	return "[IPv6:" + ip.String() + "]"
}

// sanitizeHelo keeps the characters a host name or address literal may hold
// and bounds the length; anything else becomes '_'.
func sanitizeHelo(s string) string {
	if s == "" {
		return "unknown"
	}
	if len(s) > 255 {
		s = s[:255]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			r == '.', r == '-', r == ':', r == '[', r == ']':
			return r
		}
		return '_'
	}, s)
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < ' ' || r == 0x7f || r == '>' {
			return false
		}
	}
	return true
}

var traceEncoding = base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)

// newTraceID returns a random id for the Received header and logs.
func newTraceID() string {
	var b [10]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return traceEncoding.EncodeToString(b[:])
}
