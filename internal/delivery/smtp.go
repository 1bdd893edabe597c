package delivery

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// sendVia tries the hosts in order until one gives a final answer. A
// connection failure or a 4xx moves on to the next host; a 5xx is final.
func (s *Service) sendVia(ctx context.Context, hosts []string, port string, relay bool, r row, raw []byte) outcome {
	last := outcome{code: 451, detail: "4.4.1 no host reachable"}
	for _, host := range hosts {
		addrs := []string{host}
		if net.ParseIP(host) == nil {
			ips, err := s.cfg.Resolver.LookupIPAddr(ctx, host)
			if err != nil || len(ips) == 0 {
				last = outcome{code: 451, detail: fmt.Sprintf("4.4.4 address of %s: %v", host, err)}
				continue
			}
			addrs = addrs[:0]
			for _, ip := range ips {
				addrs = append(addrs, ip.IP.String())
			}
		}
		for _, ip := range addrs {
			o, connected := s.converse(ctx, net.JoinHostPort(ip, port), host, relay, r, raw)
			if o.ok || o.permanent {
				return o
			}
			last = o
			if connected {
				break // this host answered 4xx: try the next host, not its other addresses
			}
		}
	}
	return last
}

// converse runs one SMTP transaction (RFC 5321 section 3.3), on an idle
// connection to the same destination when there is one. connected reports
// whether the server answered at all.
func (s *Service) converse(ctx context.Context, addr, host string, relay bool, r row, raw []byte) (o outcome, connected bool) {
	key := poolKey{addr: addr, host: host, relay: relay}
	if pc := s.pool.get(key, s.now()); pc != nil {
		o, reusable, sent := s.transact(ctx, pc, r, raw)
		if sent || o.ok {
			s.release(key, pc, reusable)
			return o, true
		}
		// The server closed the idle connection, or refused another
		// message on it (421, a per-connection limit), before the message
		// was handed over: nothing was sent, so a fresh connection may try.
		pc.close()
	}
	pc, o, connected := s.open(ctx, addr, host, relay)
	if pc == nil {
		return o, connected
	}
	o, reusable, _ := s.transact(ctx, pc, r, raw)
	s.release(key, pc, reusable)
	return o, true
}

// release returns a connection to the pool after a transaction, or closes it.
func (s *Service) release(key poolKey, pc *pooledConn, reusable bool) {
	pc.uses++
	if !reusable || pc.uses >= maxMessagesPerConn || !s.pool.put(key, pc, s.now()) {
		pc.quit()
	}
}

// open connects, greets, upgrades to TLS when offered and authenticates to
// the relay.
func (s *Service) open(ctx context.Context, addr, host string, relay bool) (*pooledConn, outcome, bool) {
	// go-smtp upgrades only a fresh client (NewClientStartTLS, whose first
	// EHLO names "localhost"; the EHLO after TLS carries our hostname). A
	// server without STARTTLS costs a second connection in clear, once per
	// pooled connection.
	tlsCfg := &tls.Config{ServerName: host, InsecureSkipVerify: !relay} //nolint:gosec // opportunistic TLS (RFC 7435): no MTA-STS or DANE yet
	if relay && s.cfg.RelayTLS != nil {
		tlsCfg = s.cfg.RelayTLS.Clone()
		if tlsCfg.ServerName == "" {
			tlsCfg.ServerName = host
		}
	}
	c, conn, secure, err := s.dial(ctx, addr, tlsCfg)
	if err != nil {
		var se *smtp.SMTPError
		if errors.As(err, &se) {
			return nil, smtpOutcome("greeting", err), true
		}
		return nil, outcome{code: 451, detail: "4.4.1 connect " + addr + ": " + err.Error()}, false
	}
	pc := &pooledConn{c: c, conn: conn, name: host}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Hello(s.cfg.Hostname); err != nil {
		pc.close()
		return nil, smtpOutcome("EHLO", err), true
	}
	if relay && s.cfg.RelayUsername != "" {
		ip := net.ParseIP(host)
		if !secure && (ip == nil || !ip.IsLoopback()) && host != "localhost" {
			pc.quit()
			return nil, outcome{code: 451, detail: "4.7.0 relay offers no STARTTLS; credentials are never sent in clear"}, true
		}
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.RelayUsername, s.cfg.RelayPassword)); err != nil {
			// A rejected login is a configuration problem, not the
			// recipient's: retry (and alert through the logs) rather than bounce.
			pc.quit()
			o := smtpOutcome("AUTH", err)
			o.permanent = false
			return nil, o, true
		}
	}
	return pc, outcome{}, true
}

// transact sends one message on an open connection. reusable says the
// connection may carry another message; sent says the server got past
// MAIL FROM (so a failure is the server's answer about this message, not a
// dead connection).
func (s *Service) transact(ctx context.Context, pc *pooledConn, r row, raw []byte) (o outcome, reusable, sent bool) {
	c := pc.c
	_ = pc.conn.SetDeadline(time.Now().Add(s.cfg.Timeout))
	if dl, ok := ctx.Deadline(); ok {
		_ = pc.conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	// After a refused transaction the server is reset (RFC 5321 section
	// 4.1.1.5) so the next one starts clean.
	reset := func(o outcome) (outcome, bool, bool) { return o, c.Reset() == nil, true }
	if err := c.Mail(r.MailFrom, &smtp.MailOptions{Size: int64(len(raw))}); err != nil {
		var se *smtp.SMTPError
		if errors.As(err, &se) && se.Code != 421 {
			return reset(smtpOutcome("MAIL FROM", err))
		}
		return smtpOutcome("MAIL FROM", err), false, false
	}
	if err := c.Rcpt(r.Rcpt, nil); err != nil {
		return reset(smtpOutcome("RCPT TO", err))
	}
	w, err := c.Data()
	if err != nil {
		return reset(smtpOutcome("DATA", err))
	}
	if _, err := w.Write(raw); err != nil {
		return smtpOutcome("DATA", err), false, true
	}
	resp, err := w.CloseWithResponse()
	if err != nil {
		var se *smtp.SMTPError
		return smtpOutcome("end of DATA", err), errors.As(err, &se) && se.Code != 421, true
	}
	return outcome{ok: true, code: 250, detail: strings.TrimSpace(pc.name + ": " + resp.StatusText)}, true, true
}

// dial connects and upgrades with STARTTLS when the server offers it.
func (s *Service) dial(ctx context.Context, addr string, tlsCfg *tls.Config) (*smtp.Client, net.Conn, bool, error) {
	connect := func() (net.Conn, error) {
		d := net.Dialer{}
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			_ = conn.SetDeadline(dl)
		}
		return conn, nil
	}
	conn, err := connect()
	if err != nil {
		return nil, nil, false, err
	}
	c, err := smtp.NewClientStartTLS(conn, tlsCfg)
	if err == nil {
		return c, conn, true, nil
	}
	conn.Close()
	if !strings.Contains(err.Error(), "support STARTTLS") {
		return nil, nil, false, err
	}
	if conn, err = connect(); err != nil {
		return nil, nil, false, err
	}
	return smtp.NewClient(conn), conn, false, nil
}

// smtpOutcome classifies an SMTP client error: 5xx is permanent, 4xx and
// anything else (a dropped connection) temporary.
func smtpOutcome(stage string, err error) outcome {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return outcome{code: se.Code, permanent: se.Code >= 500 && se.Code < 600,
			detail: fmt.Sprintf("%s: %d %d.%d.%d %s", stage, se.Code, se.EnhancedCode[0], se.EnhancedCode[1], se.EnhancedCode[2], se.Message)}
	}
	return outcome{code: 451, detail: stage + ": " + err.Error()}
}

// capture keeps a message for an outside recipient in dev mode.
func (s *Service) capture(ctx context.Context, r row, raw []byte) error {
	subject := ""
	if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		dec := mime.WordDecoder{}
		if subject, err = dec.DecodeHeader(m.Header.Get("Subject")); err != nil {
			subject = m.Header.Get("Subject")
		}
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO outbound_captures (id, org_id, queue_id, message_id, mail_from, rcpt, subject, blob_path, size, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (queue_id) DO NOTHING`,
		ids.New("cap"), r.OrgID, r.ID, r.MessageID, r.MailFrom, r.Rcpt, subject, r.BlobPath, len(raw), store.Micros(s.now()))
	if err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	s.log.Info("outbound mail captured (dev mode: no --smtp-relay)", "to", r.Rcpt, "subject", subject, "message_id", r.MessageID,
		"list", "GET /api/v1/outbound-captures")
	return nil
}
