// Package audit writes and reads the organization's append-only audit
// history: who did what, with which credential, when. Entries are written in
// the same transaction as the change they record, so the history cannot miss
// a change that happened (or show one that rolled back).
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
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
	// DetailsJSON, when not empty, is the details already encoded as a JSON
	// object (see DetailsObject) and Details is ignored: a hot path builds it
	// once instead of marshalling a map per entry.
	DetailsJSON string
}

// maxChunkShift bounds the rows of one INSERT to 1<<maxChunkShift (10
// parameters each), far below both engines' parameter limits.
const maxChunkShift = 7

// insertQueries holds the multi-row INSERT for 1, 2, 4, … 128 rows, per
// dialect. Batches are cut into those sizes, so the store prepares and
// caches eight statements instead of one per batch size (its cache of
// prepared writes is shared by the whole service and bounded).
var insertQueries = [2][maxChunkShift + 1]string{buildInsertQueries(store.SQLite), buildInsertQueries(store.Postgres)}

func buildInsertQueries(d store.Dialect) [maxChunkShift + 1]string {
	var out [maxChunkShift + 1]string
	for shift := range out {
		var q strings.Builder
		q.WriteString(`INSERT INTO audit_events (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details) VALUES `)
		for i := range 1 << shift {
			if i > 0 {
				q.WriteString(", ")
			}
			if d == store.SQLite {
				// Anonymous parameters: the SQLite driver looks each numbered
				// parameter (?N, what the store rewrites $N to) up by name with
				// a linear scan, which made binding a 64-row INSERT cost more
				// than inserting it.
				q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
				continue
			}
			n := i * 10
			fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8, n+9, n+10)
		}
		out[shift] = q.String()
	}
	return out
}

// RecordMany appends several entries in tx with multi-row INSERTs, for
// group commit (the vault's read audit): a batch of n entries takes one
// statement per set bit of n (at most 128 rows each), not one per entry.
func RecordMany(ctx context.Context, tx *store.Tx, items []Item) error {
	now := store.Micros(time.Now())
	dialect := 0
	if tx.Dialect() == store.Postgres {
		dialect = 1
	}
	args := make([]any, 0, 10*min(len(items), 1<<maxChunkShift))
	for len(items) > 0 {
		shift := min(bits.Len(uint(len(items)))-1, maxChunkShift)
		chunk := items[:1<<shift]
		items = items[len(chunk):]
		args = args[:0]
		for _, it := range chunk {
			details := it.DetailsJSON
			if details == "" {
				d := it.Details
				if d == nil {
					d = map[string]any{}
				}
				raw, err := json.Marshal(d)
				if err != nil {
					return fmt.Errorf("audit details: %w", err)
				}
				details = string(raw)
			}
			p := it.Principal
			args = append(args, ids.New("aud"), it.OrgID, now, string(p.Kind), p.ActorID(), p.CredentialID, it.Action, it.Target.Type, it.Target.ID, details)
		}
		if _, err := tx.ExecContext(ctx, insertQueries[dialect][shift], args...); err != nil {
			return fmt.Errorf("record audit entries: %w", err)
		}
	}
	return nil
}

// DetailsObject encodes string details as a JSON object, keys in the order
// given (pairs of key, value), for Item.DetailsJSON. It produces what
// json.Marshal would for the same map of strings, without reflection.
func DetailsObject(pairs ...string) string {
	b := make([]byte, 0, 16*len(pairs))
	b = append(b, '{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, pairs[i])
		b = append(b, ':')
		b = AppendJSONString(b, pairs[i+1])
	}
	return string(append(b, '}'))
}

// AppendJSONString appends s as a JSON string: plain ASCII as is, anything
// else through encoding/json (which also escapes <, > and & as it does in
// Record).
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s) // a string always marshals
			return append(b, raw...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
	// Only the filters given go into the query, as plain equalities, so the
	// (org_id, target_id, id) and (org_id, actor_id, id) indexes serve them;
	// "($2 = '' OR target_id = $2)" would scan the organization's history.
	var b strings.Builder
	b.WriteString(`SELECT id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details FROM audit_events
		WHERE org_id = $1 AND at >= $2 AND at < $3`)
	args := []any{orgID, since, until}
	where := func(cond string, v any) {
		args = append(args, v)
		b.WriteString(" AND ")
		b.WriteString(strings.ReplaceAll(cond, "$?", "$"+strconv.Itoa(len(args))))
	}
	if f.TargetID != "" {
		where("target_id = $?", f.TargetID)
	}
	if f.ActorID != "" {
		where("actor_id = $?", f.ActorID)
	}
	if f.Action != "" {
		where("action = $?", f.Action)
	}
	if actionLike != "" {
		where("action LIKE $?", actionLike)
	}
	if after != "" {
		where("id < $?", after)
	}
	args = append(args, limit)
	b.WriteString(" ORDER BY id DESC LIMIT $" + strconv.Itoa(len(args)))
	rows, err := q.QueryContext(ctx, b.String(), args...)
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
