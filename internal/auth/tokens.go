package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// AgentToken is an agent token's record; the secret itself is never stored.
type AgentToken struct {
	ID           string     `json:"id"`
	AgentID      string     `json:"agent_id"`
	Name         string     `json:"name"`
	Capabilities []string   `json:"capabilities"`
	CreatedAt    time.Time  `json:"created_at"`
	LastUsedAt   *time.Time `json:"last_used_at,omitempty"`
	RevokedAt    *time.Time `json:"revoked_at,omitempty"`
}

// OrgKey is an organization key's record.
type OrgKey struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Capabilities []string  `json:"capabilities"`
	CreatedAt    time.Time `json:"created_at"`
}

// IssueAgentToken stores a new token for an agent and returns its secret,
// which exists only in this return value.
func IssueAgentToken(ctx context.Context, tx *store.Tx, orgID, agentID, name string, caps []string) (AgentToken, string, error) {
	caps, err := NormalizeScopes(caps, AgentScopes)
	if err != nil {
		return AgentToken{}, "", apierr.Invalid("capabilities", "%s", err.Error())
	}
	secret := NewSecret(AgentTokenPrefix)
	now := time.Now().UTC()
	t := AgentToken{ID: ids.New("tok"), AgentID: agentID, Name: name, Capabilities: caps, CreatedAt: now}
	capsJSON, _ := json.Marshal(caps)
	_, err = tx.ExecContext(ctx, `INSERT INTO agent_tokens (id, org_id, agent_id, name, capabilities, token_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		t.ID, orgID, agentID, name, string(capsJSON), HashSecret(secret), store.Micros(now))
	if err != nil {
		return AgentToken{}, "", fmt.Errorf("insert agent token: %w", err)
	}
	return t, secret, nil
}

// CreateOrgKey stores a new organization key and returns its secret once.
func CreateOrgKey(ctx context.Context, tx *store.Tx, orgID, name string, caps []string, createdBy string) (OrgKey, string, error) {
	caps, err := NormalizeScopes(caps, OrgKeyCapabilities)
	if err != nil {
		return OrgKey{}, "", apierr.Invalid("capabilities", "%s", err.Error())
	}
	secret := NewSecret(OrgKeyPrefix)
	now := time.Now().UTC()
	k := OrgKey{ID: ids.New("key"), Name: name, Capabilities: caps, CreatedAt: now}
	capsJSON, _ := json.Marshal(caps)
	_, err = tx.ExecContext(ctx, `INSERT INTO org_keys (id, org_id, name, capabilities, token_hash, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		k.ID, orgID, name, string(capsJSON), HashSecret(secret), createdBy, store.Micros(now))
	if err != nil {
		return OrgKey{}, "", fmt.Errorf("insert org key: %w", err)
	}
	return k, secret, nil
}

// ListAgentTokens returns an agent's tokens newest first, after the id
// `after` when it is not empty.
func ListAgentTokens(ctx context.Context, q store.Querier, orgID, agentID string, limit int, after string) ([]AgentToken, error) {
	query := `SELECT id, agent_id, name, capabilities, created_at, last_used_at, revoked_at FROM agent_tokens
		WHERE org_id = $1 AND agent_id = $2 AND ($3 = '' OR id < $3) ORDER BY id DESC LIMIT $4`
	rows, err := q.QueryContext(ctx, query, orgID, agentID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list agent tokens: %w", err)
	}
	defer rows.Close()
	out := []AgentToken{}
	for rows.Next() {
		var (
			t          AgentToken
			capsRaw    string
			created    int64
			used, revd sql.NullInt64
		)
		if err := rows.Scan(&t.ID, &t.AgentID, &t.Name, &capsRaw, &created, &used, &revd); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(capsRaw), &t.Capabilities)
		t.CreatedAt, t.LastUsedAt, t.RevokedAt = store.Time(created), store.NullTime(used), store.NullTime(revd)
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeAgentToken marks a token revoked and queues the cache invalidation.
// Revoking an already revoked token succeeds and keeps the first time.
func RevokeAgentToken(ctx context.Context, tx *store.Tx, orgID, agentID, tokenID string) (AgentToken, error) {
	res, err := tx.ExecContext(ctx, `UPDATE agent_tokens SET revoked_at = $1 WHERE org_id = $2 AND agent_id = $3 AND id = $4 AND revoked_at IS NULL`,
		store.Micros(time.Now()), orgID, agentID, tokenID)
	if err != nil {
		return AgentToken{}, fmt.Errorf("revoke token: %w", err)
	}
	n, _ := res.RowsAffected()
	if n > 0 {
		if err := Invalidate(ctx, tx, tokenID); err != nil {
			return AgentToken{}, err
		}
	}
	return getAgentToken(ctx, tx, orgID, agentID, tokenID)
}

func getAgentToken(ctx context.Context, q store.Querier, orgID, agentID, tokenID string) (AgentToken, error) {
	var (
		t          AgentToken
		capsRaw    string
		created    int64
		used, revd sql.NullInt64
	)
	err := q.QueryRowContext(ctx, `SELECT id, agent_id, name, capabilities, created_at, last_used_at, revoked_at FROM agent_tokens WHERE org_id = $1 AND agent_id = $2 AND id = $3`,
		orgID, agentID, tokenID).Scan(&t.ID, &t.AgentID, &t.Name, &capsRaw, &created, &used, &revd)
	if errors.Is(err, sql.ErrNoRows) {
		return AgentToken{}, apierr.NotFound("token")
	}
	if err != nil {
		return AgentToken{}, err
	}
	_ = json.Unmarshal([]byte(capsRaw), &t.Capabilities)
	t.CreatedAt, t.LastUsedAt, t.RevokedAt = store.Time(created), store.NullTime(used), store.NullTime(revd)
	return t, nil
}
