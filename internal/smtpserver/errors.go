package smtpserver

import (
	"context"
	"errors"

	"github.com/emersion/go-smtp"
)

// Errors a Backend returns (wrapped or not) to choose the SMTP reply. The
// text a client sees never comes from the error itself: it is fixed in
// replyFor, so internal details stay in the logs.
var (
	// ErrUnknownRecipient: no such mailbox here (550 5.1.1).
	ErrUnknownRecipient = errors.New("smtpserver: unknown recipient")
	// ErrRelayDenied: the recipient's domain is not ours (550 5.7.1). The
	// server never relays.
	ErrRelayDenied = errors.New("smtpserver: relay denied")
	// ErrOverQuota: the mailbox or organization is over a quota; the sender
	// should retry later (452 4.2.2).
	ErrOverQuota = errors.New("smtpserver: over quota")
	// ErrMessageTooLarge: the message exceeds MaxMessageBytes (552 5.3.4).
	ErrMessageTooLarge = errors.New("smtpserver: message too large")
	// ErrTooManyFailedRecipients: the connection had MaxFailedRecipients
	// RCPTs refused (421 4.7.0, then the connection is closed).
	ErrTooManyFailedRecipients = errors.New("smtpserver: too many refused recipients in one connection")
	// ErrTooManyMessages: the connection used up MaxMessagesPerConn
	// (451 4.7.0); the client may reconnect.
	ErrTooManyMessages = errors.New("smtpserver: too many messages in one connection")
	// ErrDataTimeout: the client stalled while sending the message
	// (421 4.4.2).
	ErrDataTimeout = errors.New("smtpserver: timeout reading message data")
	// ErrShuttingDown: the server is stopping (421 4.3.2).
	ErrShuttingDown = errors.New("smtpserver: shutting down")
)

// permanentError marks a Deliver failure as permanent.
type permanentError struct{ err error }

func (e permanentError) Error() string   { return e.err.Error() }
func (e permanentError) Unwrap() error   { return e.err }
func (e permanentError) Permanent() bool { return true }

// Permanent marks err as a permanent failure: the client gets a 5xx reply
// and must not retry. Without it any Deliver error is temporary (4xx), the
// safe default, since the sender then keeps the message and tries again.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, says it is
// permanent through a Permanent() bool method.
func IsPermanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

func reply(code int, enh smtp.EnhancedCode, msg string) *smtp.SMTPError {
	return &smtp.SMTPError{Code: code, EnhancedCode: enh, Message: msg}
}

// Replies written by the listener before go-smtp sees a connection.
var (
	replyTooManyFromIP = reply(421, smtp.EnhancedCode{4, 7, 0}, "Too many connections from your address, try again later")
	replyTooManyConns  = reply(421, smtp.EnhancedCode{4, 3, 2}, "Too many connections, try again later")
	replyShuttingDown  = reply(421, smtp.EnhancedCode{4, 3, 2}, "Service shutting down, try again later")
)

// replyFor is the one place where an error becomes an SMTP reply, with an
// enhanced status code (RFC 3463) and a text that is safe to show to any
// client. Session methods return only what it produces, because go-smtp
// would otherwise send err.Error() to the client. README.md lists the table.
func replyFor(err error) *smtp.SMTPError {
	var se *smtp.SMTPError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrUnknownRecipient):
		return reply(550, smtp.EnhancedCode{5, 1, 1}, "No such recipient here")
	case errors.Is(err, ErrRelayDenied):
		return reply(550, smtp.EnhancedCode{5, 7, 1}, "Relay access denied")
	case errors.Is(err, ErrOverQuota):
		return reply(452, smtp.EnhancedCode{4, 2, 2}, "Mailbox over quota, try again later")
	case errors.Is(err, ErrMessageTooLarge), errors.Is(err, smtp.ErrDataTooLarge):
		return reply(552, smtp.EnhancedCode{5, 3, 4}, "Message size exceeds fixed limit")
	case errors.Is(err, smtp.ErrTooLongLine):
		// A line of DATA beyond MaxLineLength. Permanent: the same message
		// would fail the same way on every retry. go-smtp cannot read on
		// after it, so it closes the connection at the next command.
		return reply(552, smtp.EnhancedCode{5, 3, 4}, "Message has a line too long for this server")
	case errors.Is(err, ErrTooManyFailedRecipients):
		return reply(421, smtp.EnhancedCode{4, 7, 0}, "Too many refused recipients, closing connection")
	case errors.Is(err, ErrTooManyMessages):
		return reply(451, smtp.EnhancedCode{4, 7, 0}, "Too many messages in this session, reconnect and try again")
	case errors.Is(err, ErrDataTimeout):
		return reply(421, smtp.EnhancedCode{4, 4, 2}, "Timeout waiting for message data")
	case errors.Is(err, ErrShuttingDown):
		return replyShuttingDown
	case errors.Is(err, smtp.ErrDataReset):
		// BDAT transfer aborted by RSET or a closed connection.
		return reply(451, smtp.EnhancedCode{4, 3, 0}, "Message transfer aborted")
	case errors.As(err, &se):
		// Already a protocol reply (go-smtp's own, or one a Backend chose
		// deliberately): pass it through unchanged.
		return se
	case IsPermanent(err):
		return reply(554, smtp.EnhancedCode{5, 0, 0}, "Message rejected")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return reply(451, smtp.EnhancedCode{4, 4, 0}, "Temporary local problem (timeout), try again later")
	default:
		return reply(451, smtp.EnhancedCode{4, 3, 0}, "Temporary local problem, try again later")
	}
}
