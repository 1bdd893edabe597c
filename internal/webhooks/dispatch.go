package webhooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// fanOutBatch is how many log entries one dispatcher transaction handles.
const fanOutBatch = 500

// Body is the JSON body of a delivery (the reference's webhook request).
type Body struct {
	ID             string         `json:"id"`
	Type           string         `json:"type"`
	OccurredAt     string         `json:"occurred_at"`
	Sequence       string         `json:"sequence"`
	OrganizationID string         `json:"organization_id"`
	InboxID        *string        `json:"inbox_id"`
	Data           map[string]any `json:"data"`
}

// takes says whether an endpoint receives an event type at all: its
// event_types filter (empty: every type) and the visibility rules (SMS and
// social events only for endpoints created by a member or by a key holding
// phone:manage or social:manage).
func (e WebhookEndpoint) takes(typ string) bool {
	if typ == TestEventType {
		return true
	}
	if !known(typ) {
		return false
	}
	if isSMS(typ) && e.creatorType != "member" && !e.canSMS {
		return false
	}
	if isSocial(typ) && e.creatorType != "member" && !e.canSocial {
		return false
	}
	return len(e.EventTypes) == 0 || slices.Contains(e.EventTypes, typ)
}

// matches adds the inbox filter: SMS and social events carry no inbox, so
// they reach only endpoints without one.
func (e WebhookEndpoint) matches(typ, inboxID string) bool {
	if e.InboxID != nil && *e.InboxID != inboxID {
		return false
	}
	return e.takes(typ)
}

// redacts says whether the endpoint gets the event redacted.
func redacts(e WebhookEndpoint, ev events.Event) bool {
	return quarantined(ev) && e.creatorType != "member"
}

// bodyFor is the body an endpoint gets for an event: quarantined mail and
// SMS lose their sender, subject and snippet for key-created endpoints.
func bodyFor(e WebhookEndpoint, ev events.Event) ([]byte, error) {
	data := ev.Data
	if redacts(e, ev) {
		data = maps.Clone(ev.Data)
		for _, f := range redactedFields {
			delete(data, f)
		}
	}
	if data == nil {
		data = map[string]any{}
	}
	b := Body{ID: ev.ID, Type: ev.Type, OccurredAt: ev.OccurredAt.UTC().Format(time.RFC3339Nano), Sequence: strconv.FormatInt(ev.Seq, 10),
		OrganizationID: ev.OrgID, Data: data}
	if ev.InboxID != "" {
		inbox := ev.InboxID
		b.InboxID = &inbox
	}
	return json.Marshal(b)
}

// FanOut turns the organization's new log entries into deliveries and
// advances its cursor, in one transaction per batch. On PostgreSQL the
// cursor row is claimed with SKIP LOCKED, so when another node is already
// fanning out this organization this one returns at once. It returns how
// many deliveries it queued.
func (s *Service) FanOut(ctx context.Context, orgID string) (int, error) {
	total := 0
	for {
		n, more, err := s.fanOutBatch(ctx, orgID)
		total += n
		if err != nil || !more {
			return total, err
		}
	}
}

func (s *Service) fanOutBatch(ctx context.Context, orgID string) (queued int, more bool, err error) {
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		queued, more, err = s.fanOutTx(ctx, tx, orgID, nil)
		return err
	})
	return queued, more, err
}

// fanOutTx turns up to fanOutBatch new log entries of the organization into
// deliveries and advances its cursor, in tx. more says the log has more.
// With pl (the delivery pump's turn, direct leasing on SQLite), fresh
// deliveries its places allow are inserted leased to this node and added to
// pl.out: they are sent without a claim. The others are left for a claim,
// and a notification wakes the pumps.
func (s *Service) fanOutTx(ctx context.Context, tx *store.Tx, orgID string, pl *places) (queued int, more bool, err error) {
	err = func() error {
		var last int64
		err := tx.QueryRowContext(ctx, `SELECT last_seq FROM webhook_cursors WHERE org_id = $1 FOR UPDATE SKIP LOCKED`, orgID).Scan(&last)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // no endpoint ever, or another node holds it
		}
		if err != nil {
			return fmt.Errorf("claim cursor: %w", err)
		}
		evs, err := events.ListAfter(ctx, tx, orgID, "", last, fanOutBatch)
		if err != nil || len(evs) == 0 {
			return err
		}
		eps, err := listEndpoints(ctx, tx, orgID)
		if err != nil {
			return err
		}
		now := store.Micros(s.now())
		var rows []deliveryRow
		unleased := 0
		for _, ev := range evs {
			// The body depends on the event and on whether the endpoint
			// gets the redacted form: encoded at most twice per event,
			// not once per endpoint.
			var bodies [2][]byte
			for i := range eps {
				ep := &eps[i]
				if ev.Seq <= ep.startSeq || !ep.matches(ev.Type, ev.InboxID) {
					continue
				}
				status, due := StatusPending, now
				if ep.Status != EndpointActive {
					status, due = StatusSkipped, 0
				}
				form := 0
				if redacts(*ep, ev) {
					form = 1
				}
				if bodies[form] == nil {
					if bodies[form], err = bodyFor(*ep, ev); err != nil {
						return err
					}
				}
				r := deliveryRow{endpointID: ep.ID, eventID: ev.ID, seq: ev.Seq, typ: ev.Type, body: bodies[form], status: status, due: due}
				if status == StatusPending {
					queued++
					if lease, ok := pl.takeDirect(ep.ID, s.cfg.AttemptTimeout); ok {
						r.id, r.leased, r.ep = ids.New("whd"), store.Micros(lease), ep
					} else {
						unleased++
					}
				}
				rows = append(rows, r)
			}
		}
		if err := insertDeliveries(ctx, tx, orgID, rows, now); err != nil {
			return err
		}
		for _, r := range rows {
			if r.ep != nil && !r.existed {
				pl.out = append(pl.out, claimed{id: r.id, orgID: orgID, eventID: r.eventID, payload: string(r.body),
					endpoint: *r.ep, leasedUntil: store.Time(r.leased)})
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_cursors SET last_seq = $1 WHERE org_id = $2`, evs[len(evs)-1].Seq, orgID); err != nil {
			return fmt.Errorf("advance cursor: %w", err)
		}
		more = len(evs) == fanOutBatch
		if unleased > 0 {
			return tx.Notify(ctx, DueTopic, orgID)
		}
		return nil
	}()
	return queued, more, err
}

// deliveryRow is one delivery the fan-out creates.
type deliveryRow struct {
	id                               string // "" for a new one
	endpointID, eventID, typ, status string
	seq, due                         int64
	leased                           int64 // leased_until: leased to this node by the fan-out
	body                             []byte
	ep                               *WebhookEndpoint // set when leased
	existed                          bool             // set by insertDeliveries: not inserted, the delivery existed
}

// insertChunk is how many deliveries one INSERT statement carries: a
// multi-row INSERT is parsed and planned once for all of them.
const insertChunk = 50

// insertDeliveries inserts the rows: on SQLite one prepared statement per
// row, on PostgreSQL multi-row INSERTs (one round trip per chunk). A
// delivery that already exists for the endpoint and event (a repeated
// fan-out) is left as it is.
func insertDeliveries(ctx context.Context, tx *store.Tx, orgID string, rows []deliveryRow, now int64) error {
	if tx.Dialect() == store.SQLite {
		// In process, one row per statement costs less than parsing a
		// multi-row statement: the text never changes, so the store's
		// prepared statement is reused and only binding and the insert
		// itself remain.
		for i := range rows {
			r := &rows[i]
			if r.id == "" {
				r.id = ids.New("whd")
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_seq, event_type,
				payload, status, attempts, next_attempt_at, leased_until, last_attempt_at, last_status_code, last_error, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10, 0, 0, '', $11, $11) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
				r.id, orgID, r.endpointID, r.eventID, r.seq, r.typ, string(r.body), r.status, r.due, r.leased, now)
			if err != nil {
				return fmt.Errorf("insert delivery: %w", err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("insert delivery: %w", err)
			}
			r.existed = n == 0
		}
		return nil
	}
	const cols = 5
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), insertChunk)]
		rows = rows[len(chunk):]
		var q strings.Builder
		q.WriteString(`INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_seq, event_type, payload,
			status, attempts, next_attempt_at, leased_until, last_attempt_at, last_status_code, last_error, created_at, updated_at) VALUES `)
		args := make([]any, 0, 1+len(chunk)*cols)
		args = append(args, orgID)
		for i, r := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			n := 2 + i*cols
			fmt.Fprintf(&q, "($%d, $1, $%d, $%d, %d, $%d, $%d, '%s', 0, %d, %d, 0, 0, '', %d, %d)",
				n, n+1, n+2, r.seq, n+3, n+4, r.status, r.due, r.leased, now, now)
			if r.id == "" {
				r.id = ids.New("whd")
			}
			args = append(args, r.id, r.endpointID, r.eventID, r.typ, string(r.body))
		}
		q.WriteString(" ON CONFLICT (endpoint_id, event_id) DO NOTHING")
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("insert deliveries: %w", err)
		}
	}
	return nil
}

// behindOrgs lists organizations whose cursor is behind their log.
func (s *Service) behindOrgs(ctx context.Context) ([]string, error) {
	orgs, err := store.Strings(ctx, s.db, `SELECT c.org_id FROM webhook_cursors c
		WHERE EXISTS (SELECT 1 FROM events e WHERE e.org_id = c.org_id AND e.seq > c.last_seq)`)
	if err != nil {
		return nil, fmt.Errorf("find pending fan-out: %w", err)
	}
	return orgs, nil
}
