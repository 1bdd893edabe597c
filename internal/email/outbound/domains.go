package outbound

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

// dkimSelector names the DKIM key record: <selector>._domainkey.<domain>.
const dkimSelector = "agentsvc1"

// DNSRecord is a record a domain must publish.
type DNSRecord struct {
	Purpose string `json:"purpose" enum:"mx,spf,dkim,dmarc"`
	Type    string `json:"type" enum:"MX,TXT"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	// Status is the result of the last verification: pending (never
	// checked), ok, missing or mismatch.
	Status string `json:"status" enum:"pending,ok,missing,mismatch"`
}

// Domain is a sending domain.
type Domain struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Default    bool        `json:"default" doc:"The organization's own mail domain (its inboxes' addresses); served by this service, so verified."`
	Verified   bool        `json:"verified"`
	VerifiedAt *time.Time  `json:"verified_at,omitempty"`
	Records    []DNSRecord `json:"records"`
	CreatedAt  time.Time   `json:"created_at"`
}

// records lists what a domain must publish.
func (s *Service) records(name, selector, public string, status map[string]string) []DNSRecord {
	st := func(p string) string {
		if v := status[p]; v != "" {
			return v
		}
		return "pending"
	}
	return []DNSRecord{
		{Purpose: "mx", Type: "MX", Name: name, Value: "10 " + s.cfg.Hostname + ".", Status: st("mx")},
		{Purpose: "spf", Type: "TXT", Name: name, Value: "v=spf1 mx a:" + s.cfg.Hostname + " ~all", Status: st("spf")},
		{Purpose: "dkim", Type: "TXT", Name: selector + "._domainkey." + name, Value: "v=DKIM1; k=rsa; p=" + public, Status: st("dkim")},
		{Purpose: "dmarc", Type: "TXT", Name: "_dmarc." + name, Value: "v=DMARC1; p=quarantine; adkim=r; aspf=r", Status: st("dmarc")},
	}
}

// newKey generates a DKIM key pair and seals the private half.
func (s *Service) newKey(ctx context.Context, tx *store.Tx, orgID, domain string) (sealed []byte, public string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, s.cfg.KeyBits)
	if err != nil {
		return nil, "", fmt.Errorf("dkim key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, "", err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, "", err
	}
	sealed, err = s.keys.SealTx(ctx, tx, orgID, der, []byte("dkim:"+domain))
	if err != nil {
		return nil, "", err
	}
	return sealed, base64.StdEncoding.EncodeToString(pub), nil
}

// signer returns the DKIM key of a domain, creating the organization's
// default domain (its mail domain) with a fresh key on first use.
func (s *Service) signer(ctx context.Context, orgID, domain string) (*domainSigner, error) {
	domain = strings.ToLower(domain)
	s.mu.Lock()
	ds := s.signers[domain]
	s.mu.Unlock()
	if ds != nil {
		return ds, nil
	}
	var (
		owner, selector string
		sealed          []byte
	)
	err := s.db.QueryRowContext(ctx, `SELECT org_id, selector, dkim_sealed FROM domains WHERE name = $1`, domain).Scan(&owner, &selector, &sealed)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.ensureDefault(ctx, orgID); err != nil {
			return nil, err
		}
		err = s.db.QueryRowContext(ctx, `SELECT org_id, selector, dkim_sealed FROM domains WHERE name = $1`, domain).Scan(&owner, &selector, &sealed)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no DKIM key for %s", domain)
	}
	if err != nil {
		return nil, fmt.Errorf("read domain: %w", err)
	}
	der, err := s.keys.Open(ctx, owner, sealed, []byte("dkim:"+domain))
	if err != nil {
		return nil, fmt.Errorf("open dkim key of %s: %w", domain, err)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("dkim key of %s: %w", domain, err)
	}
	key, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("dkim key of %s: unexpected type %T", domain, k)
	}
	ds = &domainSigner{domain: domain, selector: selector, key: key}
	s.mu.Lock()
	s.signers[domain] = ds
	s.mu.Unlock()
	return ds, nil
}

// ensureDefault creates the row of the organization's mail domain (with
// its DKIM key) unless it exists, and returns its id.
func (s *Service) ensureDefault(ctx context.Context, orgID string) (string, error) {
	var id string
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		o, err := org.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT id FROM domains WHERE name = $1`, o.MailDomain).Scan(&id)
		if err == nil || !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		sealed, public, err := s.newKey(ctx, tx, orgID, o.MailDomain)
		if err != nil {
			return err
		}
		id = ids.New("dom")
		now := store.Micros(s.now())
		_, err = tx.ExecContext(ctx, `INSERT INTO domains (id, org_id, name, selector, dkim_sealed, dkim_public, is_default, verified, verified_at, checks_json, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, TRUE, TRUE, $7, '{}', $7)`, id, orgID, o.MailDomain, dkimSelector, sealed, public, now)
		return err
	})
	if store.IsUniqueViolation(err) {
		// Another request created it meanwhile.
		err = s.db.QueryRowContext(ctx, `SELECT id FROM domains WHERE org_id = $1 AND is_default`, orgID).Scan(&id)
	}
	return id, err
}

const domainCols = `id, name, selector, dkim_public, is_default, verified, verified_at, checks_json, created_at`

func (s *Service) scanDomain(r interface{ Scan(...any) error }) (Domain, error) {
	var (
		d                  Domain
		selector, pub, chk string
		vat, created       int64
	)
	if err := r.Scan(&d.ID, &d.Name, &selector, &pub, &d.Default, &d.Verified, &vat, &chk, &created); err != nil {
		return d, err
	}
	status := map[string]string{}
	_ = json.Unmarshal([]byte(chk), &status)
	if d.Default {
		status = map[string]string{"mx": "ok", "spf": "ok", "dkim": "ok", "dmarc": "ok"}
	}
	d.Records = s.records(d.Name, selector, pub, status)
	if d.Verified {
		t := store.Time(vat)
		d.VerifiedAt = &t
	}
	d.CreatedAt = store.Time(created)
	return d, nil
}

// AddDomain registers a custom sending domain with a new DKIM key.
func (s *Service) AddDomain(ctx context.Context, p *auth.Principal, name string) (Domain, error) {
	name = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), ".")
	if !validDomain(name) {
		return Domain{}, apierr.Invalid("name", "%q is not a domain name", name).WithHint("give a name such as mail.example.com")
	}
	var d Domain
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		sealed, public, err := s.newKey(ctx, tx, p.OrgID, name)
		if err != nil {
			return err
		}
		id := ids.New("dom")
		now := store.Micros(s.now())
		_, err = tx.ExecContext(ctx, `INSERT INTO domains (id, org_id, name, selector, dkim_sealed, dkim_public, is_default, verified, verified_at, checks_json, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, FALSE, FALSE, 0, '{}', $7)`, id, p.OrgID, name, dkimSelector, sealed, public, now)
		if store.IsUniqueViolation(err) {
			return apierr.Conflict(apierr.CodeAlreadyExists, "the domain %s is already registered", name)
		}
		if err != nil {
			return fmt.Errorf("insert domain: %w", err)
		}
		if d, err = s.scanDomain(tx.QueryRowContext(ctx, `SELECT `+domainCols+` FROM domains WHERE id = $1`, id)); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "domain.add", audit.Target{Type: "domain", ID: id}, map[string]any{"name": name})
	})
	return d, err
}

// ListDomains lists the organization's domains (its mail domain first
// created if needed), newest first.
func (s *Service) ListDomains(ctx context.Context, p *auth.Principal, limit int, after string) ([]Domain, error) {
	if _, err := s.ensureDefault(ctx, p.OrgID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+domainCols+` FROM domains WHERE org_id = $1 AND ($2 = '' OR id < $2) ORDER BY id DESC LIMIT $3`,
		p.OrgID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list domains: %w", err)
	}
	defer rows.Close()
	out := []Domain{}
	for rows.Next() {
		d, err := s.scanDomain(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// GetDomain returns one domain of the organization.
func (s *Service) GetDomain(ctx context.Context, p *auth.Principal, id string) (Domain, error) {
	d, err := s.scanDomain(s.db.QueryRowContext(ctx, `SELECT `+domainCols+` FROM domains WHERE org_id = $1 AND id = $2`, p.OrgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Domain{}, apierr.NotFound("domain")
	}
	return d, err
}

// DeleteDomain removes a custom domain (the default one stays).
func (s *Service) DeleteDomain(ctx context.Context, p *auth.Principal, id string) error {
	d, err := s.GetDomain(ctx, p, id)
	if err != nil {
		return err
	}
	if d.Default {
		return apierr.Conflict(apierr.CodeInvalidState, "the organization's mail domain cannot be removed")
	}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM domains WHERE id = $1`, id); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "domain.delete", audit.Target{Type: "domain", ID: id}, map[string]any{"name": d.Name})
	})
	s.mu.Lock()
	delete(s.signers, d.Name)
	s.mu.Unlock()
	return err
}

// VerifyDomain looks the domain's records up in DNS and marks it verified
// when all four are published; domain.verified is appended the first time.
func (s *Service) VerifyDomain(ctx context.Context, p *auth.Principal, id string) (Domain, error) {
	d, err := s.GetDomain(ctx, p, id)
	if err != nil || d.Default {
		return d, err
	}
	status := map[string]string{}
	for _, r := range d.Records {
		status[r.Purpose] = s.check(ctx, r)
	}
	ok := status["mx"] == "ok" && status["spf"] == "ok" && status["dkim"] == "ok" && status["dmarc"] == "ok"
	raw, _ := json.Marshal(status)
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		var was bool
		if err := tx.QueryRowContext(ctx, `SELECT verified FROM domains WHERE id = $1`, id).Scan(&was); err != nil {
			return err
		}
		now := store.Micros(s.now())
		if ok && !was {
			if _, err := tx.ExecContext(ctx, `UPDATE domains SET verified = TRUE, verified_at = $2, checks_json = $3 WHERE id = $1`, id, now, string(raw)); err != nil {
				return err
			}
			if _, err := events.Append(ctx, tx, p.OrgID, "", events.DomainVerified, map[string]any{"domain_id": id, "name": d.Name}); err != nil {
				return err
			}
		} else if _, err := tx.ExecContext(ctx, `UPDATE domains SET checks_json = $2 WHERE id = $1`, id, string(raw)); err != nil {
			return err
		}
		d, err = s.scanDomain(tx.QueryRowContext(ctx, `SELECT `+domainCols+` FROM domains WHERE id = $1`, id))
		return err
	})
	return d, err
}

// check looks one record up: ok, missing (nothing there) or mismatch.
func (s *Service) check(ctx context.Context, r DNSRecord) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if r.Type == "MX" {
		mxs, err := s.cfg.Resolver.LookupMX(ctx, r.Name)
		if err != nil || len(mxs) == 0 {
			return "missing"
		}
		for _, mx := range mxs {
			if strings.EqualFold(strings.TrimSuffix(mx.Host, "."), s.cfg.Hostname) {
				return "ok"
			}
		}
		return "mismatch"
	}
	txts, err := s.cfg.Resolver.LookupTXT(ctx, r.Name)
	if err != nil || len(txts) == 0 {
		return "missing"
	}
	norm := func(v string) string { return strings.ToLower(strings.Join(strings.Fields(v), "")) }
	for _, t := range txts {
		switch r.Purpose {
		case "spf":
			if strings.HasPrefix(strings.ToLower(t), "v=spf1") {
				if f := strings.Fields(strings.ToLower(t)); containsAny(f, "mx", "a:"+strings.ToLower(s.cfg.Hostname), "+mx") {
					return "ok"
				}
				return "mismatch"
			}
		case "dkim":
			if strings.Contains(norm(t), norm(r.Value[strings.Index(r.Value, "p="):])) {
				return "ok"
			}
		case "dmarc":
			if strings.HasPrefix(norm(t), "v=dmarc1") {
				return "ok"
			}
		}
	}
	return "mismatch"
}

func containsAny(fields []string, want ...string) bool {
	for _, f := range fields {
		for _, w := range want {
			if f == w {
				return true
			}
		}
	}
	return false
}

// DKIMKeyRecord answers a DNS TXT query for name from the keys this service
// holds: for "<selector>._domainkey.<domain>" of a domain it signs for, the
// record it asks the domain's owner to publish (ok), else nothing. The
// inbound checks ask it before DNS (senderauth.LocalTXT): mail between the
// service's own inboxes then verifies against the key that signed it even
// where the record is not in public DNS, as in dev mode (agentsvc.localhost),
// where every such message failed DKIM. A forged signature still fails: it
// is checked against the real key.
func (s *Service) DKIMKeyRecord(ctx context.Context, name string) (record string, ok bool, err error) {
	sel, domain, found := strings.Cut(strings.TrimSuffix(strings.ToLower(name), "."), "._domainkey.")
	if !found || sel == "" || domain == "" {
		return "", false, nil
	}
	var selector, public string
	err = s.db.QueryRowContext(ctx, `SELECT selector, dkim_public FROM domains WHERE name = $1`, domain).Scan(&selector, &public)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !strings.EqualFold(selector, sel)) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read domain: %w", err)
	}
	return "v=DKIM1; k=rsa; p=" + public, true, nil
}
