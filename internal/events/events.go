// Package events is the organization's event log: every change a client may
// care about is appended here in the same transaction as the change (an
// outbox). The log's sequence is the events API cursor and the webhook
// sequence; the webhooks dispatcher and the long-poll hub read from it.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Mail event types (the reference's webhook event table, mail family).
const (
	MessageReceived        = "message.received"
	MessageQuarantined     = "message.quarantined"
	MessageSent            = "message.sent"
	MessageDelivered       = "message.delivered"
	MessageDeliveryDelayed = "message.delivery_delayed"
	MessageBounced         = "message.bounced"
	MessageComplained      = "message.complained"
	MessageFailed          = "message.failed"
	ThreadUpdated          = "thread.updated"
	InboxCreated           = "inbox.created"
	InboxDeleted           = "inbox.deleted"
	DomainVerified         = "domain.verified"
)

// Topic is the store notification topic that announces new events; the
// payload is the organization id.
const Topic = "events.appended"

// Event is one entry of the log.
type Event struct {
	Seq        int64          `json:"sequence"`
	ID         string         `json:"id"`
	OrgID      string         `json:"organization_id"`
	InboxID    string         `json:"inbox_id,omitempty"`
	Type       string         `json:"type"`
	OccurredAt time.Time      `json:"occurred_at"`
	Data       map[string]any `json:"data"`
}

// LockLog takes the organization's event-log lock for the rest of tx
// (PostgreSQL: a transaction advisory lock, taken again at no cost;
// SQLite: its one writer already serializes). Appending takes it, so the
// log's order is the commit order. A transaction that also writes other
// per-organization rows that concurrent appenders write too (the mail usage
// counters) takes this lock first, so every such transaction locks in the
// same order and none can deadlock another.
func LockLog(ctx context.Context, tx *store.Tx, orgID string) error {
	if err := tx.Lock(ctx, "events:"+orgID); err != nil {
		return fmt.Errorf("lock event log: %w", err)
	}
	return nil
}

// Append writes an event in tx and wakes readers once tx commits.
func Append(ctx context.Context, tx *store.Tx, orgID, inboxID, typ string, data map[string]any) (Event, error) {
	if data == nil {
		data = map[string]any{}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, fmt.Errorf("event data: %w", err)
	}
	if err := LockLog(ctx, tx, orgID); err != nil {
		return Event{}, err
	}
	e := Event{ID: ids.New("evt"), OrgID: orgID, InboxID: inboxID, Type: typ, OccurredAt: time.Now().UTC(), Data: data}
	err = tx.QueryRowContext(ctx, `INSERT INTO events (id, org_id, inbox_id, type, occurred_at, data) VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq`,
		e.ID, orgID, inboxID, typ, store.Micros(e.OccurredAt), string(raw)).Scan(&e.Seq)
	if err != nil {
		return Event{}, fmt.Errorf("append event: %w", err)
	}
	if err := tx.Notify(ctx, Topic, orgID); err != nil {
		return Event{}, err
	}
	return e, nil
}

// ListAfter returns up to limit events of an organization with a sequence
// above after, oldest first; inboxID narrows to one inbox when not empty.
func ListAfter(ctx context.Context, q store.Querier, orgID, inboxID string, after int64, limit int) ([]Event, error) {
	rows, err := q.QueryContext(ctx, `SELECT seq, id, org_id, inbox_id, type, occurred_at, data FROM events
		WHERE org_id = $1 AND ($2 = '' OR inbox_id = $2) AND seq > $3 ORDER BY seq LIMIT $4`, orgID, inboxID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		var (
			e   Event
			at  int64
			raw string
		)
		if err := rows.Scan(&e.Seq, &e.ID, &e.OrgID, &e.InboxID, &e.Type, &at, &raw); err != nil {
			return nil, err
		}
		e.OccurredAt = store.Time(at)
		_ = json.Unmarshal([]byte(raw), &e.Data)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Head returns the highest sequence of an organization's log (0 when empty):
// the cursor for "from now on".
func Head(ctx context.Context, q store.Querier, orgID string) (int64, error) {
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE org_id = $1`, orgID).Scan(&seq)
	return seq, err
}
