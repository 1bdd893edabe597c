// Package audit writes and reads the organization's append-only audit
// history: who did what, with which credential, when. Entries are written in
// the same transaction as the change they record, so the history cannot miss
// a change that happened (or show one that rolled back).
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Entry is one line of the history.
type Entry struct {
	ID           string         `json:"id"`
	At           time.Time      `json:"at"`
	ActorType    string         `json:"actor_type" doc:"agent, org_key, member or system"`
	ActorID      string         `json:"actor_id" doc:"the agent, key or member that acted"`
	CredentialID string         `json:"credential_id" doc:"the token or key used (tok_, key_), or the member id"`
	Action       string         `json:"action" doc:"what was done, for example agent.create or token.revoke"`
	TargetType   string         `json:"target_type"`
	TargetID     string         `json:"target_id"`
	Details      map[string]any `json:"details,omitempty"`
}

// Target names what an action was done to.
type Target struct{ Type, ID string }

// System is the actor for work the service does by itself (CLI, jobs).
var System = auth.NewPrincipal("system", "", "", "system", "system", nil)

// Record appends an entry in tx on behalf of p.
func Record(ctx context.Context, tx *store.Tx, orgID string, p *auth.Principal, action string, target Target, details map[string]any) error {
	if details == nil {
		details = map[string]any{}
	}
	raw, err := json.Marshal(details)
	if err != nil {
		return fmt.Errorf("audit details: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO audit_events (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		ids.New("aud"), orgID, store.Micros(time.Now()), string(p.Kind), p.ActorID(), p.CredentialID, action, target.Type, target.ID, string(raw))
	if err != nil {
		return fmt.Errorf("record audit entry: %w", err)
	}
	return nil
}

// Item is one entry for RecordMany.
type Item struct {
	OrgID     string
	Principal *auth.Principal
	Action    string
	Target    Target
	Details   map[string]any
}

// recordManyChunk bounds the rows of one INSERT (10 parameters each), far
// below both engines' parameter limits.
const recordManyChunk = 200

// RecordMany appends several entries in tx with multi-row INSERTs, for
// group commit (the vault's read audit): one statement per chunk instead of
// one per entry.
func RecordMany(ctx context.Context, tx *store.Tx, items []Item) error {
	now := store.Micros(time.Now())
	for start := 0; start < len(items); start += recordManyChunk {
		chunk := items[start:min(start+recordManyChunk, len(items))]
		var q strings.Builder
		q.WriteString(`INSERT INTO audit_events (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details) VALUES `)
		args := make([]any, 0, len(chunk)*10)
		for i, it := range chunk {
			details := it.Details
			if details == nil {
				details = map[string]any{}
			}
			raw, err := json.Marshal(details)
			if err != nil {
				return fmt.Errorf("audit details: %w", err)
			}
			if i > 0 {
				q.WriteString(", ")
			}
			n := len(args)
			fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8, n+9, n+10)
			p := it.Principal
			args = append(args, ids.New("aud"), it.OrgID, now, string(p.Kind), p.ActorID(), p.CredentialID, it.Action, it.Target.Type, it.Target.ID, string(raw))
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("record audit entries: %w", err)
		}
	}
	return nil
}

// Filter narrows a listing; empty fields do not filter.
type Filter struct {
	TargetID string
	ActorID  string
	Action   string
	Since    time.Time
	Until    time.Time

	// ActionPrefix keeps actions starting with it, e.g. "vault.".
	ActionPrefix string
}

// List returns entries newest first, after the id `after` when not empty.
func List(ctx context.Context, q store.Querier, orgID string, f Filter, limit int, after string) ([]Entry, error) {
	var since, until int64
	if !f.Since.IsZero() {
		since = store.Micros(f.Since)
	}
	until = 1<<62 - 1
	actionLike := ""
	if f.ActionPrefix != "" {
		actionLike = f.ActionPrefix + "%"
	}
	if !f.Until.IsZero() {
		until = store.Micros(f.Until)
	}
	rows, err := q.QueryContext(ctx, `SELECT id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details FROM audit_events
		WHERE org_id = $1 AND ($2 = '' OR target_id = $2) AND ($3 = '' OR actor_id = $3) AND ($4 = '' OR action = $4)
		AND at >= $5 AND at < $6 AND ($7 = '' OR id < $7)
		AND ($9 = '' OR action LIKE $9)
		ORDER BY id DESC LIMIT $8`, orgID, f.TargetID, f.ActorID, f.Action, since, until, after, limit, actionLike)
	if err != nil {
		return nil, fmt.Errorf("list audit history: %w", err)
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var (
			e   Entry
			at  int64
			raw string
		)
		if err := rows.Scan(&e.ID, &at, &e.ActorType, &e.ActorID, &e.CredentialID, &e.Action, &e.TargetType, &e.TargetID, &raw); err != nil {
			return nil, err
		}
		e.At = store.Time(at)
		_ = json.Unmarshal([]byte(raw), &e.Details)
		out = append(out, e)
	}
	return out, rows.Err()
}
