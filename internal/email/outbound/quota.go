package outbound

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"path"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

func (s *Service) plan(ctx context.Context, orgID string) (org.Plan, error) {
	o, err := org.GetOrganization(ctx, s.db, orgID)
	if err != nil {
		return org.Plan{}, err
	}
	p, ok := org.Plans[o.Plan]
	if !ok {
		return org.Plan{}, fmt.Errorf("organization %s has unknown plan %q", orgID, o.Plan)
	}
	return p, nil
}

func startOfDay(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func startOfMonth(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// checkQuotas refuses a send over the plan's limits (402 naming the quota)
// or, on a plan that sends only to verified recipients, to anyone else, and
// counts the send in outbound_usage. It runs in the send transaction under
// a per-organization lock, so two sends racing for the last unit cannot
// both pass; a refused or rolled-back send counts nothing.
func (s *Service) checkQuotas(ctx context.Context, tx *store.Tx, orgID string, plan org.Plan, rcpts []string, now time.Time) error {
	if err := tx.Lock(ctx, "outbound-quota:"+orgID); err != nil {
		return err
	}
	now = now.UTC()
	dayKey, monthKey := "d"+now.Format("2006-01-02"), "m"+now.Format("2006-01")
	day, err := periodUsage(ctx, tx, orgID, dayKey, startOfDay(now))
	if err != nil {
		return err
	}
	month, err := periodUsage(ctx, tx, orgID, monthKey, startOfMonth(now))
	if err != nil {
		return err
	}
	if plan.MaxSendsPerDay > 0 && day.sends >= plan.MaxSendsPerDay {
		return apierr.QuotaExceeded("sends_per_day", "the %s plan sends %d messages per day (UTC)", plan.Name, plan.MaxSendsPerDay).
			WithHint("wait until tomorrow (UTC) or move to the paid plan")
	}
	if plan.MaxSendsPerMonth > 0 && month.sends >= plan.MaxSendsPerMonth {
		return apierr.QuotaExceeded("sends_per_month", "the %s plan sends %d messages per month", plan.Name, plan.MaxSendsPerMonth).
			WithHint("move to the paid plan")
	}
	if plan.MaxOutboundRecipientsPerMonth > 0 && month.recipients+int64(len(rcpts)) > plan.MaxOutboundRecipientsPerMonth {
		return apierr.QuotaExceeded("outbound_recipients", "the %s plan sends to %d recipients per month", plan.Name, plan.MaxOutboundRecipientsPerMonth)
	}
	if plan.OutboundVerifiedOnly {
		for _, r := range rcpts {
			ok, err := allowedRecipient(ctx, tx, orgID, r)
			if err != nil {
				return err
			}
			if !ok {
				return apierr.QuotaExceeded("verified_recipients", "the %s plan sends only to verified recipients; %s is not verified", plan.Name, r).
					WithHint("add it with POST /api/v1/verified-recipients and have its owner open the confirmation link")
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE outbound_usage SET sends = sends + 1, recipients = recipients + $3
		WHERE org_id = $1 AND period IN ($2, $4)`, orgID, dayKey, len(rcpts), monthKey); err != nil {
		return fmt.Errorf("count send: %w", err)
	}
	return nil
}

// usage is what an organization sent in a period.
type usage struct{ sends, recipients int64 }

// periodUsage reads a period's counters, starting them from the sends
// stored since the period began when the period has no row yet.
func periodUsage(ctx context.Context, tx *store.Tx, orgID, period string, since time.Time) (usage, error) {
	var u usage
	err := tx.QueryRowContext(ctx, `SELECT sends, recipients FROM outbound_usage WHERE org_id = $1 AND period = $2`, orgID, period).
		Scan(&u.sends, &u.recipients)
	if err == nil {
		return u, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return u, fmt.Errorf("send usage: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(recipients), 0) FROM outbound_messages WHERE org_id = $1 AND created_at >= $2`,
		orgID, store.Micros(since)).Scan(&u.sends, &u.recipients); err != nil {
		return u, fmt.Errorf("count sends: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO outbound_usage (org_id, period, sends, recipients) VALUES ($1, $2, $3, $4)`,
		orgID, period, u.sends, u.recipients); err != nil {
		return u, fmt.Errorf("start send usage: %w", err)
	}
	return u, nil
}

// allowedRecipient: the organization's own inboxes, and confirmed addresses.
func allowedRecipient(ctx context.Context, q store.Querier, orgID, addr string) (bool, error) {
	addr = strings.ToLower(addr)
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM inboxes WHERE org_id = $1 AND address = $2
		UNION ALL SELECT 1 FROM verified_recipients WHERE org_id = $1 AND address = $2 AND verified_at > 0 LIMIT 1`, orgID, addr).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// VerifiedRecipient is an address a sandbox organization may send to once
// its owner confirmed.
type VerifiedRecipient struct {
	ID         string     `json:"id"`
	Address    string     `json:"address"`
	Verified   bool       `json:"verified"`
	VerifiedAt *time.Time `json:"verified_at,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
}

func scanRecipient(r interface{ Scan(...any) error }) (VerifiedRecipient, error) {
	var v VerifiedRecipient
	var vat, created int64
	err := r.Scan(&v.ID, &v.Address, &vat, &created)
	if vat > 0 {
		t := store.Time(vat)
		v.Verified, v.VerifiedAt = true, &t
	}
	v.CreatedAt = store.Time(created)
	return v, err
}

func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// AddRecipient registers an address and mails it a confirmation link
// (again, with a new link, when it was added before and is unconfirmed).
func (s *Service) AddRecipient(ctx context.Context, p *auth.Principal, address string) (VerifiedRecipient, error) {
	a, err := parseAddress("address", address)
	if err != nil {
		return VerifiedRecipient{}, err
	}
	addr := strings.ToLower(a.Address)
	var b [24]byte
	_, _ = rand.Read(b[:])
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	o, err := org.GetOrganization(ctx, s.db, p.OrgID)
	if err != nil {
		return VerifiedRecipient{}, err
	}
	ds, err := s.signer(ctx, p.OrgID, o.MailDomain)
	if err != nil {
		return VerifiedRecipient{}, err
	}
	link := strings.TrimRight(s.cfg.BaseURL, "/") + "/api/v1/verified-recipients/confirm?code=" + tok
	now := s.now().UTC()
	raw, err := compose(letter{From: mail.Address{Name: o.Name, Address: "noreply@" + o.MailDomain}, To: []mail.Address{{Address: addr}},
		Subject: "Confirm that " + o.Name + " may send you mail", MessageID: newMessageID(o.MailDomain), Date: now,
		Text: "The organization " + o.Name + " asks to send you email from its agents.\n\nTo allow it, open this link:\n\n" + link +
			"\n\nIf you did not expect this, ignore this message; nothing will be sent to you.\n"})
	if err != nil {
		return VerifiedRecipient{}, err
	}
	if raw, err = sign(raw, ds); err != nil {
		return VerifiedRecipient{}, err
	}
	blob := path.Join("outbound", now.Format("2006/01/02"), ids.New("cfm")+".eml")
	if err := s.blobs.Write(blob, raw); err != nil {
		return VerifiedRecipient{}, err
	}
	var v VerifiedRecipient
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		existing, err := scanRecipient(tx.QueryRowContext(ctx, `SELECT id, address, verified_at, created_at FROM verified_recipients WHERE org_id = $1 AND address = $2`, p.OrgID, addr))
		switch {
		case err == nil && existing.Verified:
			v = existing
			return apierr.Conflict(apierr.CodeAlreadyExists, "%s is verified already", addr)
		case err == nil:
			if _, err := tx.ExecContext(ctx, `UPDATE verified_recipients SET token_hash = $2 WHERE id = $1`, existing.ID, tokenHash(tok)); err != nil {
				return err
			}
			v = existing
		case errors.Is(err, sql.ErrNoRows):
			v = VerifiedRecipient{ID: ids.New("vrc"), Address: addr, CreatedAt: now}
			if _, err := tx.ExecContext(ctx, `INSERT INTO verified_recipients (id, org_id, address, token_hash, verified_at, created_at) VALUES ($1, $2, $3, $4, 0, $5)`,
				v.ID, p.OrgID, addr, tokenHash(tok), store.Micros(now)); err != nil {
				return err
			}
		default:
			return err
		}
		if _, err := delivery.Enqueue(ctx, tx, delivery.Job{OrgID: p.OrgID, Domain: o.MailDomain, BlobPath: blob, Recipients: []string{addr}}); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "verified_recipient.add", audit.Target{Type: "verified_recipient", ID: v.ID}, map[string]any{"address": addr})
	})
	if err != nil {
		_ = s.blobs.Remove(blob)
	}
	return v, err
}

// ConfirmRecipient marks the address of a confirmation link verified.
func (s *Service) ConfirmRecipient(ctx context.Context, token string) (VerifiedRecipient, error) {
	if token == "" {
		return VerifiedRecipient{}, apierr.Invalid("code", "is required")
	}
	var v VerifiedRecipient
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		v, err = scanRecipient(tx.QueryRowContext(ctx, `SELECT id, address, verified_at, created_at FROM verified_recipients WHERE token_hash = $1`, tokenHash(token)))
		if errors.Is(err, sql.ErrNoRows) {
			return apierr.NotFound("confirmation link").WithHint("the link is wrong or was replaced by a newer one")
		}
		if err != nil || v.Verified {
			return err
		}
		now := s.now().UTC()
		if _, err := tx.ExecContext(ctx, `UPDATE verified_recipients SET verified_at = $2 WHERE id = $1`, v.ID, store.Micros(now)); err != nil {
			return err
		}
		v.Verified, v.VerifiedAt = true, &now
		return nil
	})
	return v, err
}

// ListRecipients lists the organization's verified (and pending) recipients.
func (s *Service) ListRecipients(ctx context.Context, p *auth.Principal, limit int, after string) ([]VerifiedRecipient, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, address, verified_at, created_at FROM verified_recipients WHERE org_id = $1 AND ($2 = '' OR id < $2)
		ORDER BY id DESC LIMIT $3`, p.OrgID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list recipients: %w", err)
	}
	return store.ScanAll(rows, scanRecipient)
}

// DeleteRecipient removes a recipient.
func (s *Service) DeleteRecipient(ctx context.Context, p *auth.Principal, id string) error {
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM verified_recipients WHERE org_id = $1 AND id = $2`, p.OrgID, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apierr.NotFound("verified recipient")
		}
		return audit.Record(ctx, tx, p.OrgID, p, "verified_recipient.delete", audit.Target{Type: "verified_recipient", ID: id}, nil)
	})
}

// Capture is a message kept in dev mode instead of being sent outside.
type Capture struct {
	ID        string    `json:"id"`
	MessageID string    `json:"message_id,omitempty"`
	MailFrom  string    `json:"mail_from"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Size      int64     `json:"size"`
	Raw       string    `json:"raw" doc:"The message as it would have been sent (DKIM-signed), RFC 5322."`
	CreatedAt time.Time `json:"created_at"`
}

// ListCaptures lists the organization's captured messages, newest first.
func (s *Service) ListCaptures(ctx context.Context, p *auth.Principal, limit int, after string) ([]Capture, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, message_id, mail_from, rcpt, subject, size, blob_path, created_at FROM outbound_captures
		WHERE org_id = $1 AND ($2 = '' OR id < $2) ORDER BY id DESC LIMIT $3`, p.OrgID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list captures: %w", err)
	}
	defer rows.Close()
	out := []Capture{}
	for rows.Next() {
		var c Capture
		var blob string
		var created int64
		if err := rows.Scan(&c.ID, &c.MessageID, &c.MailFrom, &c.To, &c.Subject, &c.Size, &blob, &created); err != nil {
			return nil, err
		}
		if raw, err := s.blobs.ReadContext(ctx, blob); err == nil {
			c.Raw = string(raw)
		}
		c.CreatedAt = store.Time(created)
		out = append(out, c)
	}
	return out, rows.Err()
}

// Deliveries returns the per-recipient status of a sent message.
func (s *Service) Deliveries(ctx context.Context, p *auth.Principal, messageID string) ([]delivery.Recipient, error) {
	if _, err := s.mb.Message(ctx, p, messageID); err != nil {
		return nil, err
	}
	return delivery.Statuses(ctx, s.db, messageID)
}
