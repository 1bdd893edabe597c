package app

import (
	"context"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/email/inbound"
	"github.com/agentsvc/agentsvc/internal/email/outbound"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
)

// newOutbound wires the sending side and the delivery queue. Mail for the
// service's own inboxes goes through the inbound pipeline behind the same
// report-handling wrapper the SMTP server uses, so it is screened like any
// other mail and a report to a return path is recognised either way.
func (a *App) newOutbound(resolver senderauth.Resolver, hostname string) {
	a.Outbound = outbound.New(a.DB, a.Mailbox, a.Inboxes, a.Seal, outbound.Config{Hostname: hostname, Resolver: resolver}, a.log)
	backoff := a.cfg.SMTPRetryBackoff
	cfg := delivery.Config{Hostname: hostname, Relay: a.cfg.SMTPRelay, RelayUsername: a.cfg.SMTPRelayUsername,
		RelayPassword: a.cfg.SMTPRelayPassword, Port: a.cfg.SMTPDeliveryPort, Resolver: resolver, RetryFor: a.cfg.SMTPRetryFor,
		Capture: a.cfg.Dev && a.cfg.SMTPRelay == "" && !a.cfg.SMTPDirect}
	if backoff > 0 {
		cfg.Backoff = func(n int) time.Duration { return min(backoff<<min(n, 12), time.Hour) }
	}
	a.Delivery = delivery.New(a.DB, a.Mailbox.Blobs(), cfg, a.log)
	a.mail.local = a.Delivery.Backend(inbound.Postmaster(a.Inbound, a.cfg.Postmaster))
	a.Delivery.SetLocal(a.mail.local)
	a.Outbound.SetDelivery(a.Delivery)
}

// runOutbound starts the delivery workers and the upload sweeper.
func (a *App) runOutbound(ctx context.Context, workers *sync.WaitGroup) {
	workers.Go(func() { a.Delivery.Run(ctx) })
	workers.Go(func() { a.Outbound.Run(ctx) })
}
