package inbound

import (
	"context"
	"errors"
	"strings"

	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

// Postmaster wraps next so that mail to postmaster@ any domain next
// receives for goes to the inbox at target: RFC 5321 §4.5.1 requires every
// server that delivers mail to accept the case-insensitive local name
// "postmaster", and the operator says where it goes (--postmaster). With
// an empty target, next is returned as it is, and postmaster@ is refused
// like any unknown address (550 5.1.1).
func Postmaster(next smtpserver.Backend, target string) smtpserver.Backend {
	if target == "" {
		return next
	}
	return &postmasterBackend{next: next, target: strings.ToLower(target)}
}

type postmasterBackend struct {
	next   smtpserver.Backend
	target string
}

// isPostmaster reports an address whose local part is postmaster.
func isPostmaster(rcpt string) bool {
	local, _, ok := strings.Cut(strings.TrimSpace(rcpt), "@")
	return ok && strings.EqualFold(local, "postmaster")
}

// CheckRecipient accepts postmaster@ a domain of ours when the target
// inbox exists. next decides which domains are ours: postmaster@ another
// domain is still a relay attempt (550 5.7.1).
func (b *postmasterBackend) CheckRecipient(ctx context.Context, rcpt string) error {
	err := b.next.CheckRecipient(ctx, rcpt)
	if !isPostmaster(rcpt) || !errors.Is(err, smtpserver.ErrUnknownRecipient) {
		return err
	}
	return b.next.CheckRecipient(ctx, b.target)
}

// Deliver hands the message to next with postmaster@ recipients replaced
// by the target, once however many domains' postmasters it was sent to.
func (b *postmasterBackend) Deliver(ctx context.Context, env smtpserver.Envelope, raw []byte) error {
	rcpts := make([]string, 0, len(env.Recipients))
	seen := map[string]bool{}
	for _, r := range env.Recipients {
		if isPostmaster(r) {
			r = b.target
		}
		if k := strings.ToLower(r); !seen[k] {
			seen[k] = true
			rcpts = append(rcpts, r)
		}
	}
	env.Recipients = rcpts
	return b.next.Deliver(ctx, env, raw)
}
