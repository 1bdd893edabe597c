package mailbox

import (
	"context"
	"database/sql"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Sender rule kinds.
const (
	RuleAllow = "allow"
	RuleBlock = "block"
)

// MaxRulesPerInbox bounds the rules of one inbox.
const MaxRulesPerInbox = 1000

// SenderRule allows or blocks mail by its From address, before screening.
type SenderRule struct {
	ID        string    `json:"id"`
	InboxID   string    `json:"inbox_id"`
	Kind      string    `json:"kind" enum:"allow,block"`
	Pattern   string    `json:"pattern" doc:"A full address (alice@example.com) or @domain (@example.com, which also covers its subdomains), lower case, an internationalized domain in IDNA A-labels (@xn--bcher-kva.example for @bücher.example)."`
	CreatedAt time.Time `json:"created_at"`
}

// NormalizePattern checks a rule pattern, a full address or "@" followed by
// a domain, and brings it to the one form rules are stored and compared in:
// lower case, the domain in IDNA A-labels (RFC 5891: "bücher.example" is
// "xn--bcher-kva.example"), no trailing dot. Mail names one domain in all
// those spellings, so a rule must not depend on which one a sender picks,
// and two spellings of one pattern must be one rule.
func NormalizePattern(p string) (string, error) {
	p = strings.ToLower(strings.TrimSpace(p))
	if len(p) < 3 || len(p) > 254 {
		return "", apierr.Invalid("pattern", "must be a full address or @domain")
	}
	at := strings.LastIndexByte(p, '@')
	if at < 0 {
		return "", apierr.Invalid("pattern", "%q is neither a full address nor @domain", p)
	}
	// The full IDNA check even for ASCII, unlike normalizeDomain: a pattern
	// is stored once, and a broken A-label ("xn--zz") is a mistake to report.
	domain, err := idna.Lookup.ToASCII(strings.TrimSuffix(p[at+1:], "."))
	domain = strings.ToLower(domain)
	if err != nil || !validDomain(domain) {
		return "", apierr.Invalid("pattern", "%q does not contain a valid domain", p)
	}
	norm := p[:at+1] + domain
	if at > 0 {
		a, err := mail.ParseAddress(norm)
		if err != nil || a.Address != norm {
			return "", apierr.Invalid("pattern", "%q is neither a full address nor @domain", p)
		}
	}
	if len(norm) > 254 {
		return "", apierr.Invalid("pattern", "must be a full address or @domain")
	}
	return norm, nil
}

// normalizeDomain brings a domain to its A-label form in lower case without
// a trailing dot; ok is false when it is not a valid IDNA domain name.
// ASCII names skip the IDNA mapping: the pipeline compares every rule with
// every message, and almost all of them are ASCII already.
func normalizeDomain(d string) (string, bool) {
	d = strings.TrimSuffix(strings.TrimSpace(d), ".")
	for i := 0; i < len(d); i++ {
		if d[i] >= utf8.RuneSelf {
			a, err := idna.Lookup.ToASCII(d)
			if err != nil {
				return strings.ToLower(d), false
			}
			return strings.ToLower(a), true
		}
	}
	return strings.ToLower(d), true
}

func validDomain(d string) bool {
	if d == "" || len(d) > 253 || !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.Contains(d, "..") {
		return false
	}
	for _, r := range d {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// ruleKey is the normalized form of a stored pattern. Rules stored before
// patterns were normalized may hold U-labels; they are compared in A-label
// form like the rest (so no migration rewrites them).
func ruleKey(pattern string) string {
	for i := 0; i < len(pattern); i++ {
		if pattern[i] >= utf8.RuneSelf {
			if n, err := NormalizePattern(pattern); err == nil {
				return n
			}
			return pattern
		}
	}
	// ASCII: stored by NormalizePattern (or before IDNs were converted,
	// when it lower-cased and refused a trailing dot just the same).
	return pattern
}

// MatchRule returns the rule that decides mail from addr: a full-address rule
// before any domain rule, and a longer domain (a subdomain rule) before a
// shorter one; nil when none applies. The domain of addr is compared in the
// form NormalizePattern gives (A-labels, lower case, no trailing dot).
func MatchRule(rules []SenderRule, addr string) *SenderRule {
	addr, domain, ok := ruleAddress(addr)
	if !ok {
		return nil
	}
	var best *SenderRule
	bestLen := -1
	for i := range rules {
		r := &rules[i]
		pattern := ruleKey(r.Pattern)
		switch {
		case pattern == addr:
			return r
		case strings.HasPrefix(pattern, "@"):
			d := pattern[1:]
			if (domain == d || strings.HasSuffix(domain, "."+d)) && len(d) > bestLen {
				best, bestLen = r, len(d)
			}
		}
	}
	return best
}

// BlockRule returns a block rule that decides mail from any one of addrs,
// or nil. Each address is decided as MatchRule decides it (its own most
// specific rule), and one blocked author blocks the message: RFC 5322
// (section 3.6.2) lets From list several authors, and mail arrives with
// several From fields too, so a blocked sender could otherwise put another
// address first. The rules are indexed once, so a From listing many
// addresses costs one lookup per domain label of each.
func BlockRule(rules []SenderRule, addrs []string) *SenderRule {
	if len(rules) == 0 || len(addrs) == 0 {
		return nil
	}
	exact := map[string]*SenderRule{}
	domains := map[string]*SenderRule{}
	for i := range rules {
		key := ruleKey(rules[i].Pattern)
		m := exact
		if strings.HasPrefix(key, "@") {
			m, key = domains, key[1:]
		}
		if m[key] == nil { // the first of two spellings wins, as in MatchRule
			m[key] = &rules[i]
		}
	}
	for _, a := range addrs {
		addr, domain, ok := ruleAddress(a)
		if !ok {
			continue
		}
		r := exact[addr]
		// The longest domain first: "a.b.example", then "b.example", ...
		for d := domain; r == nil && d != ""; {
			r = domains[d]
			i := strings.IndexByte(d, '.')
			if i < 0 {
				break
			}
			d = d[i+1:]
		}
		if r != nil && r.Kind == RuleBlock {
			return r
		}
	}
	return nil
}

// ruleAddress brings addr to the form rules are compared in (lower case,
// the domain as A-labels without a trailing dot) and returns it with its
// domain; ok is false without an "@".
func ruleAddress(addr string) (norm, domain string, ok bool) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return "", "", false
	}
	// An invalid IDN keeps its lower-case spelling: it can only equal a
	// rule spelled the same way.
	domain, _ = normalizeDomain(addr[at+1:])
	return addr[:at+1] + domain, domain, true
}

// RulesFor lists an inbox's rules (the pipeline's read, no access check).
func RulesFor(ctx context.Context, q store.Querier, inboxID string) ([]SenderRule, error) {
	rows, err := q.QueryContext(ctx, rulesForQuery, inboxID)
	return scanRules(rows, err)
}

// rulesForQuery has its LIMIT written in, not bound: SQLite (3.47 on) plans
// a bound LIMIT with its value and so re-prepares such a statement each time
// it is bound again, which made this read, run for every inbound message, a
// parse and plan each time (its cost more than doubled).
var rulesForQuery = `SELECT id, inbox_id, kind, pattern, created_at FROM sender_rules
	WHERE inbox_id = $1 ORDER BY id DESC LIMIT ` + strconv.Itoa(MaxRulesPerInbox+1)

func listRules(ctx context.Context, q store.Querier, inboxID string, limit int, after string) ([]SenderRule, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, inbox_id, kind, pattern, created_at FROM sender_rules
		WHERE inbox_id = $1 AND ($2 = '' OR id < $2) ORDER BY id DESC LIMIT $3`, inboxID, after, limit)
	return scanRules(rows, err)
}

func scanRules(rows *sql.Rows, err error) ([]SenderRule, error) {
	if err != nil {
		return nil, fmt.Errorf("list rules: %w", err)
	}
	defer rows.Close()
	out := []SenderRule{}
	for rows.Next() {
		var r SenderRule
		var at int64
		if err := rows.Scan(&r.ID, &r.InboxID, &r.Kind, &r.Pattern, &at); err != nil {
			return nil, err
		}
		r.CreatedAt = store.Time(at)
		out = append(out, r)
	}
	return out, rows.Err()
}

// ListRules lists an inbox's sender rules, newest first.
func (s *Service) ListRules(ctx context.Context, p *auth.Principal, inboxID string, limit int, after string) ([]SenderRule, error) {
	if _, err := visibleInbox(ctx, s.db, p, inboxID); err != nil {
		return nil, err
	}
	return listRules(ctx, s.db, inboxID, limit, after)
}

// CreateRule adds a rule. The same pattern twice is 409 already_exists
// (delete the old rule to change its kind).
func (s *Service) CreateRule(ctx context.Context, p *auth.Principal, inboxID, kind, pattern string) (SenderRule, error) {
	if kind != RuleAllow && kind != RuleBlock {
		return SenderRule{}, apierr.Invalid("kind", "must be allow or block")
	}
	pat, err := NormalizePattern(pattern)
	if err != nil {
		return SenderRule{}, err
	}
	r := SenderRule{ID: ids.New("rul"), InboxID: inboxID, Kind: kind, Pattern: pat, CreatedAt: s.now().UTC()}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		in, err := visibleInbox(ctx, tx, p, inboxID)
		if err != nil {
			return err
		}
		existing, err := RulesFor(ctx, tx, inboxID)
		if err != nil {
			return err
		}
		if len(existing) >= MaxRulesPerInbox {
			return apierr.Invalid("pattern", "an inbox has at most %d sender rules", MaxRulesPerInbox)
		}
		exists := apierr.Conflict(apierr.CodeAlreadyExists, "a rule for %s already exists", pat).WithHint("delete it first to change its kind")
		// The unique index compares stored text; a rule stored in U-labels
		// by an earlier version is the same rule as its A-label form.
		for _, e := range existing {
			if ruleKey(e.Pattern) == pat {
				return exists
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO sender_rules (id, org_id, inbox_id, kind, pattern, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			r.ID, in.OrgID, inboxID, kind, pat, store.Micros(r.CreatedAt))
		if store.IsUniqueViolation(err) {
			return exists
		}
		if err != nil {
			return fmt.Errorf("insert rule: %w", err)
		}
		return audit.Record(ctx, tx, in.OrgID, p, "sender_rule.create", audit.Target{Type: "sender_rule", ID: r.ID},
			map[string]any{"inbox_id": inboxID, "kind": kind, "pattern": pat})
	})
	return r, err
}

// DeleteRule removes a rule.
func (s *Service) DeleteRule(ctx context.Context, p *auth.Principal, inboxID, ruleID string) error {
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		in, err := visibleInbox(ctx, tx, p, inboxID)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM sender_rules WHERE inbox_id = $1 AND id = $2`, inboxID, ruleID)
		if err != nil {
			return fmt.Errorf("delete rule: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apierr.NotFound("sender rule")
		}
		return audit.Record(ctx, tx, in.OrgID, p, "sender_rule.delete", audit.Target{Type: "sender_rule", ID: ruleID},
			map[string]any{"inbox_id": inboxID})
	})
}
