package mailbox

import (
	"context"
	"database/sql"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"

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
	Pattern   string    `json:"pattern" doc:"A full address (alice@example.com) or @domain (@example.com, which also covers its subdomains)."`
	CreatedAt time.Time `json:"created_at"`
}

// NormalizePattern checks and lower-cases a rule pattern: a full address or
// "@" followed by a domain.
func NormalizePattern(p string) (string, error) {
	p = strings.ToLower(strings.TrimSpace(p))
	if len(p) < 3 || len(p) > 254 {
		return "", apierr.Invalid("pattern", "must be a full address or @domain")
	}
	domain := p
	if strings.HasPrefix(p, "@") {
		domain = p[1:]
	} else {
		a, err := mail.ParseAddress(p)
		if err != nil || a.Address != p {
			return "", apierr.Invalid("pattern", "%q is neither a full address nor @domain", p)
		}
		domain = p[strings.LastIndexByte(p, '@')+1:]
	}
	if !validDomain(domain) {
		return "", apierr.Invalid("pattern", "%q does not contain a valid domain", p)
	}
	return p, nil
}

func validDomain(d string) bool {
	if d == "" || len(d) > 253 || !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.Contains(d, "..") {
		return false
	}
	for _, r := range d {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r > 127) {
			return false
		}
	}
	return true
}

// MatchRule returns the rule that decides mail from addr: a full-address rule
// before any domain rule, and a longer domain (a subdomain rule) before a
// shorter one; nil when none applies.
func MatchRule(rules []SenderRule, addr string) *SenderRule {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return nil
	}
	domain := addr[at+1:]
	var best *SenderRule
	bestLen := -1
	for i := range rules {
		r := &rules[i]
		switch {
		case r.Pattern == addr:
			return r
		case strings.HasPrefix(r.Pattern, "@"):
			d := r.Pattern[1:]
			if (domain == d || strings.HasSuffix(domain, "."+d)) && len(d) > bestLen {
				best, bestLen = r, len(d)
			}
		}
	}
	return best
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
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sender_rules WHERE inbox_id = $1`, inboxID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxRulesPerInbox {
			return apierr.Invalid("pattern", "an inbox has at most %d sender rules", MaxRulesPerInbox)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO sender_rules (id, org_id, inbox_id, kind, pattern, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			r.ID, in.OrgID, inboxID, kind, pat, store.Micros(r.CreatedAt))
		if store.IsUniqueViolation(err) {
			return apierr.Conflict(apierr.CodeAlreadyExists, "a rule for %s already exists", pat).WithHint("delete it first to change its kind")
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
