package outbound

import (
	"context"
	"fmt"
	"net/mail"
	"path"
	"strings"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

// NotifyOwners emails a notice from the service (noreply@ the organization's
// mail domain, DKIM-signed) to the organization's owners, through the same
// queue as agents' mail, and records it in the audit history. The webhooks
// feature uses it when it disables a failing endpoint.
func (s *Service) NotifyOwners(ctx context.Context, orgID, subject, text string) error {
	o, err := org.GetOrganization(ctx, s.db, orgID)
	if err != nil {
		return err
	}
	owners, err := store.Strings(ctx, s.db, `SELECT email FROM members WHERE org_id = $1 AND role = $2 ORDER BY id`, orgID, org.RoleOwner)
	if err != nil {
		return fmt.Errorf("owners of %s: %w", orgID, err)
	}
	if len(owners) == 0 {
		return nil
	}
	ds, err := s.signer(ctx, orgID, o.MailDomain)
	if err != nil {
		return err
	}
	to := make([]mail.Address, len(owners))
	for i, e := range owners {
		to[i] = mail.Address{Address: e}
	}
	now := s.now().UTC()
	raw, err := compose(letter{From: mail.Address{Name: "agentsvc", Address: "noreply@" + o.MailDomain}, To: to,
		Subject: strings.Map(stripControl, subject), MessageID: newMessageID(o.MailDomain), Date: now, Text: text})
	if err != nil {
		return err
	}
	if raw, err = sign(raw, ds); err != nil {
		return err
	}
	blob := path.Join("outbound", now.Format("2006/01/02"), ids.New("ntc")+".eml")
	if err := s.blobs.Write(blob, raw); err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := delivery.Enqueue(ctx, tx, delivery.Job{OrgID: orgID, Domain: o.MailDomain, BlobPath: blob, Recipients: owners}); err != nil {
			return err
		}
		return audit.Record(ctx, tx, orgID, audit.System, "owners.notified", audit.Target{Type: "organization", ID: orgID},
			map[string]any{"subject": subject, "recipients": owners})
	})
	if err != nil {
		_ = s.blobs.Remove(blob)
	}
	return err
}

// stripControl drops control characters from a header text.
func stripControl(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return -1
	}
	return r
}
