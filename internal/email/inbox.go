// Package email holds agents' mailboxes: inboxes, and (in later parts)
// messages, threads, drafts, uploads and sender rules.
package email

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Inbox is an agent's email address.
type Inbox struct {
	ID          string    `json:"id"`
	Address     string    `json:"address"`
	DisplayName string    `json:"display_name"`
	AgentID     string    `json:"agent_id"`
	CreatedAt   time.Time `json:"created_at"`
}

// Service manages inboxes.
type Service struct {
	db  *store.DB
	log *slog.Logger

	// profiles caches AgentWithInboxes by agent id for a few seconds.
	// Changes to an agent or its inboxes evict it through
	// org.AgentChangedTopic (NOTIFY on PostgreSQL, so on every node); the
	// TTL bounds staleness should a notification be lost.
	profiles   sync.Map
	profileGen atomic.Uint64 // bumped by every eviction; a read that raced one is not cached
}

type profile struct {
	agent   org.Agent
	inboxes []Inbox
	expires time.Time
}

const profileTTL = 5 * time.Second

// NewService wires the inbox service.
func NewService(db *store.DB, log *slog.Logger) *Service {
	s := &Service{db: db, log: log}
	db.Subscribe(org.AgentChangedTopic, func(agentID string) {
		s.profileGen.Add(1)
		if agentID == store.ResetPayload {
			s.profiles.Clear()
			return
		}
		s.profiles.Delete(agentID)
	})
	return s
}

// reserved local parts: RFC 2142 role addresses and the bounce return path.
var reserved = map[string]bool{
	"postmaster": true, "abuse": true, "hostmaster": true, "webmaster": true,
	"mailer-daemon": true, "noreply": true, "no-reply": true, "bounces": true,
}

// NormalizeUsername validates a local part (RFC 5322 dot-atom) and lowers
// its case: mail systems treat local parts case-insensitively in practice,
// and two inboxes differing only in case would be a trap.
func NormalizeUsername(u string) (string, error) {
	u = strings.ToLower(strings.TrimSpace(u))
	if u == "" {
		return "", apierr.Invalid("username", "is required")
	}
	if len(u) > 64 {
		return "", apierr.Invalid("username", "must be at most 64 characters (RFC 5321 local part)")
	}
	if u[0] == '.' || u[len(u)-1] == '.' || strings.Contains(u, "..") {
		return "", apierr.Invalid("username", "must not start or end with a dot or contain two dots in a row")
	}
	for _, r := range u {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", r):
		default:
			return "", apierr.Invalid("username", "%q is not allowed in an email local part", r)
		}
	}
	if reserved[u] || strings.HasPrefix(u, "bounces+") {
		return "", apierr.Invalid("username", "%q is reserved", u)
	}
	return u, nil
}

// NewInbox is the body of POST /api/v1/inboxes.
type NewInbox struct {
	Username    string
	DisplayName string
	Metadata    map[string]any
}

// AgentWithInbox is an agent created with its inbox.
type AgentWithInbox struct {
	Agent org.Agent `json:"agent"`
	Inbox Inbox     `json:"inbox"`
}

// CreateWithAgent creates an agent and its inbox on the organization's mail
// domain in one transaction, and logs inbox.created.
func (s *Service) CreateWithAgent(ctx context.Context, p *auth.Principal, n NewInbox) (AgentWithInbox, error) {
	username, err := NormalizeUsername(n.Username)
	if err != nil {
		return AgentWithInbox{}, err
	}
	name := strings.TrimSpace(n.DisplayName)
	if name == "" {
		name = username
	}
	var c AgentWithInbox
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		o, err := org.GetOrganization(ctx, tx, p.OrgID)
		if err != nil {
			return err
		}
		if c.Agent, err = org.InsertAgent(ctx, tx, p.OrgID, name, n.Metadata); err != nil {
			return err
		}
		c.Inbox = Inbox{ID: ids.New("inb"), Address: username + "@" + o.MailDomain, DisplayName: name, AgentID: c.Agent.ID, CreatedAt: c.Agent.CreatedAt}
		_, err = tx.ExecContext(ctx, `INSERT INTO inboxes (id, org_id, agent_id, address, display_name, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			c.Inbox.ID, p.OrgID, c.Agent.ID, c.Inbox.Address, name, store.Micros(c.Inbox.CreatedAt))
		if store.IsUniqueViolation(err) {
			return apierr.Conflict(apierr.CodeAlreadyExists, "the address %s is taken", c.Inbox.Address).
				WithHint("choose another username")
		}
		if err != nil {
			return fmt.Errorf("insert inbox: %w", err)
		}
		if _, err := events.Append(ctx, tx, p.OrgID, c.Inbox.ID, events.InboxCreated,
			map[string]any{"inbox_id": c.Inbox.ID, "address": c.Inbox.Address, "agent_id": c.Agent.ID}); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "inbox.create", audit.Target{Type: "inbox", ID: c.Inbox.ID},
			map[string]any{"agent_id": c.Agent.ID, "address": c.Inbox.Address})
	})
	return c, err
}

// ListForAgent lists the inboxes equipped on an agent, newest first.
func (s *Service) ListForAgent(ctx context.Context, orgID, agentID string, limit int, after string) ([]Inbox, error) {
	return listInboxes(ctx, s.db, orgID, agentID, limit, after)
}

func listInboxes(ctx context.Context, q store.Querier, orgID, agentID string, limit int, after string) ([]Inbox, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, address, display_name, agent_id, created_at FROM inboxes
		WHERE org_id = $1 AND agent_id = $2 AND ($3 = '' OR id < $3) ORDER BY id DESC LIMIT $4`, orgID, agentID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list inboxes: %w", err)
	}
	defer rows.Close()
	out := []Inbox{}
	for rows.Next() {
		var in Inbox
		var created int64
		if err := rows.Scan(&in.ID, &in.Address, &in.DisplayName, &in.AgentID, &created); err != nil {
			return nil, err
		}
		in.CreatedAt = store.Time(created)
		out = append(out, in)
	}
	return out, rows.Err()
}

// Inbox returns an inbox the principal can see: an agent sees only inboxes
// equipped on it; a key or member sees every inbox of the organization.
// Anything else is 404, never 403, so ids of others leak nothing.
func (s *Service) Inbox(ctx context.Context, p *auth.Principal, id string) (Inbox, error) {
	var in Inbox
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT id, address, display_name, agent_id, created_at FROM inboxes WHERE org_id = $1 AND id = $2`, p.OrgID, id).
		Scan(&in.ID, &in.Address, &in.DisplayName, &in.AgentID, &created)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && p.Kind == auth.KindAgent && in.AgentID != p.AgentID) {
		return Inbox{}, apierr.NotFound("inbox")
	}
	if err != nil {
		return Inbox{}, err
	}
	in.CreatedAt = store.Time(created)
	return in, nil
}

// BeforeAgentDelete logs inbox.deleted for each inbox of an agent that is
// about to be deleted (the rows go with the agent).
func (s *Service) BeforeAgentDelete(orgID, agentID string) func(ctx context.Context, tx *store.Tx) error {
	return func(ctx context.Context, tx *store.Tx) error {
		inboxes, err := listInboxes(ctx, tx, orgID, agentID, 1000, "")
		if err != nil {
			return err
		}
		for _, in := range inboxes {
			if _, err := events.Append(ctx, tx, orgID, in.ID, events.InboxDeleted,
				map[string]any{"inbox_id": in.ID, "address": in.Address, "agent_id": agentID}); err != nil {
				return err
			}
		}
		return nil
	}
}

// AgentWithInboxes reads an agent and up to 100 of its inboxes in one query:
// GET /api/v1/me runs on every agent start-up and health check, so it is
// kept to a single round trip.
func (s *Service) AgentWithInboxes(ctx context.Context, orgID, agentID string) (org.Agent, []Inbox, error) {
	if v, ok := s.profiles.Load(agentID); ok {
		if p := v.(*profile); time.Now().Before(p.expires) && p.agent.ID == agentID {
			return p.agent, p.inboxes, nil
		}
	}
	gen := s.profileGen.Load()
	a, inboxes, err := s.readAgentWithInboxes(ctx, orgID, agentID)
	if err == nil && s.profileGen.Load() == gen {
		s.profiles.Store(agentID, &profile{agent: a, inboxes: inboxes, expires: time.Now().Add(profileTTL)})
	}
	return a, inboxes, err
}

func (s *Service) readAgentWithInboxes(ctx context.Context, orgID, agentID string) (org.Agent, []Inbox, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT a.id, a.name, a.metadata, a.created_at, a.updated_at,
			COALESCE(i.id, ''), COALESCE(i.address, ''), COALESCE(i.display_name, ''), COALESCE(i.created_at, 0)
		FROM agents a LEFT JOIN inboxes i ON i.agent_id = a.id
		WHERE a.org_id = $1 AND a.id = $2 ORDER BY i.id DESC LIMIT 100`, orgID, agentID)
	if err != nil {
		return org.Agent{}, nil, fmt.Errorf("read agent: %w", err)
	}
	defer rows.Close()
	var (
		a       org.Agent
		inboxes = []Inbox{}
		found   bool
	)
	for rows.Next() {
		var (
			meta                    string
			created, updated, inbAt int64
			inbID, address, display string
		)
		if err := rows.Scan(&a.ID, &a.Name, &meta, &created, &updated, &inbID, &address, &display, &inbAt); err != nil {
			return org.Agent{}, nil, err
		}
		if !found {
			found = true
			_ = json.Unmarshal([]byte(meta), &a.Metadata)
			a.CreatedAt, a.UpdatedAt = store.Time(created), store.Time(updated)
		}
		if inbID != "" {
			inboxes = append(inboxes, Inbox{ID: inbID, Address: address, DisplayName: display, AgentID: a.ID, CreatedAt: store.Time(inbAt)})
		}
	}
	if err := rows.Err(); err != nil {
		return org.Agent{}, nil, err
	}
	if !found {
		return org.Agent{}, nil, apierr.NotFound("agent")
	}
	return a, inboxes, nil
}
