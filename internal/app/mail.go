package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/agentsvc/agentsvc/internal/email/inbound"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/email/screen"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

// mailParts are the inbound mail components the app starts and stops.
type mailParts struct {
	hub    *mailbox.Hub
	smtp   *smtpserver.Server
	smtpLn net.Listener
	// local receives mail for the service's own inboxes, from the SMTP
	// server and from local delivery alike (newOutbound builds it).
	local smtpserver.Backend
}

// newMail wires the mailbox, the long-poll hub, the inbound pipeline and the
// SMTP server, and binds the SMTP listener (so dev-credentials.json can name
// the real address, port 0 included).
func (a *App) newMail() error {
	a.mail.hub = mailbox.NewHub(a.DB, a.log)
	a.Mailbox = mailbox.NewService(a.DB, a.cfg.DataDir, a.mail.hub, a.log)
	var resolver senderauth.Resolver = net.DefaultResolver
	if a.cfg.DNSServer != "" {
		resolver = senderauth.NewResolver(a.cfg.DNSServer)
	}
	hostname := a.cfg.MailDomain
	if hostname == "" {
		hostname = "localhost"
	}
	a.Inbound = inbound.New(a.DB, a.Mailbox, inbound.Config{
		// Inbound checks repeat the same few lookups for every message of a
		// sender, so they go through a cache. Outbound does not: a domain
		// verification must see a record the moment it is published.
		// The service's own DKIM keys are answered locally (outbound's
		// DKIMKeyRecord; a.Outbound is wired just below, before any mail).
		Checker: &senderauth.Checker{Resolver: senderauth.NewCachingResolver(senderauth.LocalTXT{Resolver: resolver,
			Local: func(ctx context.Context, name string) (string, bool, error) {
				if a.Outbound == nil {
					return "", false, nil
				}
				return a.Outbound.DKIMKeyRecord(ctx, name)
			}}), AuthServID: hostname},
		Detector: screen.NewDetector(),
	}, a.log)
	a.newOutbound(resolver, hostname)
	// STARTTLS with a self-signed certificate: senders on the internet use
	// opportunistic TLS and do not verify, so this encrypts in dev and in
	// production until certificate files or ACME are configured.
	tlsCfg, err := smtpserver.SelfSignedTLS(hostname)
	if err != nil {
		return fmt.Errorf("smtp tls: %w", err)
	}
	a.mail.smtp, err = smtpserver.New(smtpserver.Config{Addr: a.cfg.SMTPAddr, Hostname: hostname, TLS: tlsCfg,
		MaxMessageBytes: a.cfg.SMTPMaxMessageBytes, Logger: a.log}, a.mail.local)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if a.mail.smtpLn, err = net.Listen("tcp", a.cfg.SMTPAddr); err != nil {
		return fmt.Errorf("smtp listener: %w", err)
	}
	a.cfg.SMTPAddr = a.mail.smtpLn.Addr().String()
	return nil
}

// SMTPAddr is the bound SMTP address.
func (a *App) SMTPAddr() string {
	if a.mail.smtpLn == nil {
		return ""
	}
	return a.mail.smtpLn.Addr().String()
}

// runMail starts the hub, the pipeline workers and the SMTP server.
func (a *App) runMail(workCtx context.Context, workers *sync.WaitGroup) {
	workers.Go(func() { a.mail.hub.Run(workCtx) })
	workers.Go(func() { a.Inbound.Run(workCtx) })
	a.runOutbound(workCtx, workers)
	ln := a.mail.smtpLn
	go func() {
		if err := a.mail.smtp.Serve(ln); err != nil {
			a.log.Error("smtp server stopped", "err", err)
		}
	}()
	a.log.Info("smtp listening", "addr", a.SMTPAddr())
}

// stopMail stops taking mail: sessions in flight finish (their messages are
// spooled) while the workers still run; the workers stop with the others.
func (a *App) stopMail(ctx context.Context) error {
	if a.mail.smtp == nil {
		return nil
	}
	if err := a.mail.smtp.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("smtp shutdown: %w", err)
	}
	return nil
}
