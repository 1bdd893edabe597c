// Package org holds organizations, their team members, plans and quotas, and
// the agents that act for them, with the tokens agents authenticate with.
package org

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Organization is a customer account.
type Organization struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Plan       string    `json:"plan"`
	MailDomain string    `json:"mail_domain"`
	CreatedAt  time.Time `json:"created_at"`
}

// Member roles.
const (
	RoleOwner  = "owner"
	RoleAdmin  = "admin"
	RoleMember = "member"
)

// Member is a person on the organization's team.
type Member struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role"`
}

// Service manages organizations, members and agents.
type Service struct {
	db    *store.DB
	authn *auth.Authenticator
	log   *slog.Logger
}

// NewService wires the service. authn may be nil in tools that do not serve
// requests (no cache to clear).
func NewService(db *store.DB, authn *auth.Authenticator, log *slog.Logger) *Service {
	return &Service{db: db, authn: authn, log: log}
}

// NewOrganization is what CreateOrganization needs.
type NewOrganization struct {
	Name          string
	Plan          string
	MailDomain    string
	OwnerEmail    string
	OwnerName     string
	OwnerPassword string
	KeyName       string
}

// Created is what CreateOrganization returns: the secret is shown once.
type Created struct {
	Organization Organization `json:"organization"`
	Owner        Member       `json:"owner"`
	OrgKey       auth.OrgKey  `json:"org_key"`
	OrgKeySecret string       `json:"-"`
}

// CreateOrganization makes an organization, its owner member and an
// organization key holding every capability, in one transaction.
func (s *Service) CreateOrganization(ctx context.Context, n NewOrganization) (Created, error) {
	n.Name = strings.TrimSpace(n.Name)
	if n.Name == "" || len(n.Name) > 200 {
		return Created{}, apierr.Invalid("name", "must be 1 to 200 characters")
	}
	if _, ok := Plans[n.Plan]; !ok {
		return Created{}, apierr.Invalid("plan", "must be sandbox or paid")
	}
	n.OwnerEmail = strings.ToLower(strings.TrimSpace(n.OwnerEmail))
	if !strings.Contains(n.OwnerEmail, "@") {
		return Created{}, apierr.Invalid("owner_email", "must be an email address")
	}
	if len(n.OwnerPassword) < 12 {
		return Created{}, apierr.Invalid("owner_password", "must be at least 12 characters")
	}
	if n.KeyName == "" {
		n.KeyName = "default"
	}
	now := time.Now().UTC()
	c := Created{
		Organization: Organization{ID: ids.New("org"), Name: n.Name, Plan: n.Plan, MailDomain: strings.ToLower(n.MailDomain), CreatedAt: now},
		Owner:        Member{ID: ids.New("mem"), Email: n.OwnerEmail, Name: n.OwnerName, Role: RoleOwner},
	}
	hash := auth.HashPassword(n.OwnerPassword)
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, $2, $3, $4, $5)`,
			c.Organization.ID, c.Organization.Name, c.Organization.Plan, c.Organization.MailDomain, store.Micros(now)); err != nil {
			return fmt.Errorf("insert organization: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO members (id, org_id, email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			c.Owner.ID, c.Organization.ID, c.Owner.Email, c.Owner.Name, c.Owner.Role, hash, store.Micros(now)); err != nil {
			if store.IsUniqueViolation(err) {
				return apierr.Conflict(apierr.CodeAlreadyExists, "a member with email %s already exists", c.Owner.Email)
			}
			return fmt.Errorf("insert owner: %w", err)
		}
		key, secret, err := auth.CreateOrgKey(ctx, tx, c.Organization.ID, n.KeyName, auth.OrgKeyCapabilities, c.Owner.ID)
		if err != nil {
			return err
		}
		c.OrgKey, c.OrgKeySecret = key, secret
		return audit.Record(ctx, tx, c.Organization.ID, audit.System, "organization.create",
			audit.Target{Type: "organization", ID: c.Organization.ID}, map[string]any{"plan": n.Plan, "owner": c.Owner.Email})
	})
	return c, err
}

// Get returns an organization.
func (s *Service) Get(ctx context.Context, id string) (Organization, error) {
	return GetOrganization(ctx, s.db, id)
}

// GetOrganization reads an organization through any querier.
func GetOrganization(ctx context.Context, q store.Querier, id string) (Organization, error) {
	var o Organization
	var created int64
	err := q.QueryRowContext(ctx, `SELECT id, name, plan, mail_domain, created_at FROM organizations WHERE id = $1`, id).
		Scan(&o.ID, &o.Name, &o.Plan, &o.MailDomain, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return o, apierr.NotFound("organization")
	}
	o.CreatedAt = store.Time(created)
	return o, err
}

// Agent is a software agent acting for the organization.
type Agent struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Metadata  map[string]any `json:"metadata"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
}

const (
	maxNameLen       = 200
	maxMetadataBytes = 16 << 10
	maxMetadataKeys  = 64
)

// ValidateName checks a display name: no control characters, which would let
// it break out of a mail header later.
func ValidateName(field, name string) error {
	if len(name) > maxNameLen {
		return apierr.Invalid(field, "must be at most %d bytes", maxNameLen)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return apierr.Invalid(field, "must not contain control characters")
		}
	}
	return nil
}

// ValidateMetadata checks an agent's metadata and returns it encoded.
func ValidateMetadata(m map[string]any) (string, error) {
	if m == nil {
		m = map[string]any{}
	}
	if len(m) > maxMetadataKeys {
		return "", apierr.Invalid("metadata", "at most %d keys", maxMetadataKeys)
	}
	for k := range m {
		if k == "" || len(k) > 64 {
			return "", apierr.Invalid("metadata", "keys must be 1 to 64 bytes")
		}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "", apierr.Invalid("metadata", "must be a JSON object")
	}
	if len(raw) > maxMetadataBytes {
		return "", apierr.Invalid("metadata", "at most %d bytes when encoded", maxMetadataBytes)
	}
	return string(raw), nil
}

// InsertAgent creates an agent in tx after checking the plan's agent quota.
// The inbox service calls it to create an agent together with its inbox.
func InsertAgent(ctx context.Context, tx *store.Tx, orgID, name string, metadata map[string]any) (Agent, error) {
	if err := ValidateName("display_name", name); err != nil {
		return Agent{}, err
	}
	meta, err := ValidateMetadata(metadata)
	if err != nil {
		return Agent{}, err
	}
	if err := checkAgentQuota(ctx, tx, orgID); err != nil {
		return Agent{}, err
	}
	now := time.Now().UTC()
	a := Agent{ID: ids.New("agt"), Name: name, CreatedAt: now, UpdatedAt: now}
	_ = json.Unmarshal([]byte(meta), &a.Metadata)
	_, err = tx.ExecContext(ctx, `INSERT INTO agents (id, org_id, name, metadata, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
		a.ID, orgID, name, meta, store.Micros(now))
	if err != nil {
		return Agent{}, fmt.Errorf("insert agent: %w", err)
	}
	return a, nil
}

// GetAgent reads an agent of an organization.
func GetAgent(ctx context.Context, q store.Querier, orgID, id string) (Agent, error) {
	var (
		a                Agent
		meta             string
		created, updated int64
	)
	err := q.QueryRowContext(ctx, `SELECT id, name, metadata, created_at, updated_at FROM agents WHERE org_id = $1 AND id = $2`, orgID, id).
		Scan(&a.ID, &a.Name, &meta, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return a, apierr.NotFound("agent")
	}
	if err != nil {
		return a, err
	}
	_ = json.Unmarshal([]byte(meta), &a.Metadata)
	a.CreatedAt, a.UpdatedAt = store.Time(created), store.Time(updated)
	return a, nil
}

// Agent returns an agent the principal can see: its own agent for an agent
// token, any agent of the organization for a key.
func (s *Service) Agent(ctx context.Context, p *auth.Principal, id string) (Agent, error) {
	if p.Kind == auth.KindAgent && p.AgentID != id {
		return Agent{}, apierr.NotFound("agent")
	}
	return GetAgent(ctx, s.db, p.OrgID, id)
}

// ListAgents lists the organization's agents newest first.
func (s *Service) ListAgents(ctx context.Context, p *auth.Principal, limit int, after string) ([]Agent, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, metadata, created_at, updated_at FROM agents
		WHERE org_id = $1 AND ($2 = '' OR id < $2) ORDER BY id DESC LIMIT $3`, p.OrgID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	defer rows.Close()
	out := []Agent{}
	for rows.Next() {
		var (
			a                Agent
			meta             string
			created, updated int64
		)
		if err := rows.Scan(&a.ID, &a.Name, &meta, &created, &updated); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(meta), &a.Metadata)
		a.CreatedAt, a.UpdatedAt = store.Time(created), store.Time(updated)
		out = append(out, a)
	}
	return out, rows.Err()
}

// AgentUpdate holds the fields a PATCH may change; nil leaves a field alone.
type AgentUpdate struct {
	Name     *string
	Metadata map[string]any
}

// UpdateAgent changes an agent's name or replaces its metadata.
func (s *Service) UpdateAgent(ctx context.Context, p *auth.Principal, id string, u AgentUpdate) (Agent, error) {
	var out Agent
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		a, err := GetAgent(ctx, tx, p.OrgID, id)
		if err != nil {
			return err
		}
		changed := []string{}
		if u.Name != nil {
			if err := ValidateName("name", *u.Name); err != nil {
				return err
			}
			a.Name = *u.Name
			changed = append(changed, "name")
		}
		meta, err := ValidateMetadata(a.Metadata)
		if err != nil {
			return err
		}
		if u.Metadata != nil {
			if meta, err = ValidateMetadata(u.Metadata); err != nil {
				return err
			}
			a.Metadata = u.Metadata
			changed = append(changed, "metadata")
		}
		a.UpdatedAt = time.Now().UTC()
		if _, err := tx.ExecContext(ctx, `UPDATE agents SET name = $1, metadata = $2, updated_at = $3 WHERE org_id = $4 AND id = $5`,
			a.Name, meta, store.Micros(a.UpdatedAt), p.OrgID, id); err != nil {
			return fmt.Errorf("update agent: %w", err)
		}
		out = a
		if err := NotifyAgentChanged(ctx, tx, id); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "agent.update", audit.Target{Type: "agent", ID: id}, map[string]any{"changed": changed})
	})
	return out, err
}

// DeleteAgent removes an agent with its tokens and inboxes. beforeDelete runs
// in the same transaction first, so the inbox service can record what it
// removes (inbox.deleted events).
func (s *Service) DeleteAgent(ctx context.Context, p *auth.Principal, id string, beforeDelete func(ctx context.Context, tx *store.Tx) error) error {
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := GetAgent(ctx, tx, p.OrgID, id); err != nil {
			return err
		}
		if beforeDelete != nil {
			if err := beforeDelete(ctx, tx); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM agents WHERE org_id = $1 AND id = $2`, p.OrgID, id); err != nil {
			return fmt.Errorf("delete agent: %w", err)
		}
		if err := auth.Invalidate(ctx, tx, id); err != nil {
			return err
		}
		if err := NotifyAgentChanged(ctx, tx, id); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "agent.delete", audit.Target{Type: "agent", ID: id}, nil)
	})
	if err == nil && s.authn != nil {
		s.authn.Forget(id)
	}
	return err
}

// IssueToken creates a token for an agent of the principal's organization.
func (s *Service) IssueToken(ctx context.Context, p *auth.Principal, agentID, name string, caps []string) (auth.AgentToken, string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return auth.AgentToken{}, "", apierr.Invalid("name", "is required")
	}
	if err := ValidateName("name", name); err != nil {
		return auth.AgentToken{}, "", err
	}
	var (
		tok    auth.AgentToken
		secret string
	)
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := GetAgent(ctx, tx, p.OrgID, agentID); err != nil {
			return err
		}
		var err error
		if tok, secret, err = auth.IssueAgentToken(ctx, tx, p.OrgID, agentID, name, caps); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "token.create", audit.Target{Type: "token", ID: tok.ID},
			map[string]any{"agent_id": agentID, "capabilities": tok.Capabilities})
	})
	return tok, secret, err
}

// ListTokens lists an agent's tokens newest first (never their secrets).
func (s *Service) ListTokens(ctx context.Context, p *auth.Principal, agentID string, limit int, after string) ([]auth.AgentToken, error) {
	if _, err := GetAgent(ctx, s.db, p.OrgID, agentID); err != nil {
		return nil, err
	}
	return auth.ListAgentTokens(ctx, s.db, p.OrgID, agentID, limit, after)
}

// RevokeToken revokes an agent's token; it stops working on the next request.
func (s *Service) RevokeToken(ctx context.Context, p *auth.Principal, agentID, tokenID string) (auth.AgentToken, error) {
	var tok auth.AgentToken
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		if tok, err = auth.RevokeAgentToken(ctx, tx, p.OrgID, agentID, tokenID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "token.revoke", audit.Target{Type: "token", ID: tokenID}, map[string]any{"agent_id": agentID})
	})
	if err == nil && s.authn != nil {
		s.authn.Forget(tokenID)
	}
	return tok, err
}

// AgentChangedTopic announces (payload: the agent id) that an agent, or what
// is equipped on it, changed; caches of agent data listen to it.
const AgentChangedTopic = "agent.changed"

// NotifyAgentChanged queues the AgentChangedTopic notification in tx.
func NotifyAgentChanged(ctx context.Context, tx *store.Tx, agentID string) error {
	return tx.Notify(ctx, AgentChangedTopic, agentID)
}
