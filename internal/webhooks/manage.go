package webhooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Budget kinds.
const (
	budgetTests     = "tests"
	budgetRedeliver = "redeliver"
)

// takeBudget grants up to n units of an organization's hourly budget kind
// (fixed windows on the clock hour, counted in the database so every node
// shares them). When nothing is left it returns apierr.RateLimited with the
// time to the next window.
func takeBudget(ctx context.Context, tx *store.Tx, orgID, kind string, n, limit int, now time.Time) (int, error) {
	if err := tx.Lock(ctx, "webhook-budget:"+orgID+":"+kind); err != nil {
		return 0, err
	}
	window := now.Truncate(time.Hour)
	var used int
	err := tx.QueryRowContext(ctx, `SELECT used FROM webhook_budgets WHERE org_id = $1 AND kind = $2 AND window_start = $3`,
		orgID, kind, store.Micros(window)).Scan(&used)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("read budget: %w", err)
	}
	grant := min(n, limit-used)
	if grant <= 0 {
		return 0, apierr.RateLimited(window.Add(time.Hour).Sub(now)).WithHint(
			fmt.Sprintf("the organization's %s budget is %d per hour", kind, limit))
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO webhook_budgets (org_id, kind, window_start, used) VALUES ($1, $2, $3, $4)
		ON CONFLICT (org_id, kind, window_start) DO UPDATE SET used = webhook_budgets.used + $4`,
		orgID, kind, store.Micros(window), grant)
	if err != nil {
		return 0, fmt.Errorf("spend budget: %w", err)
	}
	return grant, nil
}

// Test queues a test delivery (type webhook.test, sequence "0") to an
// active endpoint. It spends one unit of the tests-and-replays budget.
func (s *Service) Test(ctx context.Context, p *auth.Principal, id string) (WebhookDelivery, error) {
	now := s.now()
	var out WebhookDelivery
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		ep, err := getEndpoint(ctx, tx, p.OrgID, id)
		if err != nil {
			return err
		}
		if ep.Status != EndpointActive {
			return apierr.Conflict(apierr.CodeInvalidState, "the endpoint is %s", ep.Status).WithHint("set its status to active first")
		}
		if _, err := takeBudget(ctx, tx, p.OrgID, budgetTests, 1, TestBudgetPerHour, now); err != nil {
			return err
		}
		evID := ids.New("evt")
		body := Body{ID: evID, Type: TestEventType, OccurredAt: now.Format(time.RFC3339Nano), Sequence: "0", OrganizationID: p.OrgID,
			InboxID: ep.InboxID, Data: map[string]any{"endpoint_id": ep.ID, "test": true}}
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		row := deliveryRow{endpointID: ep.ID, eventID: evID, typ: TestEventType, body: raw, status: StatusPending, due: store.Micros(now)}
		if err := insertDeliveries(ctx, tx, p.OrgID, []deliveryRow{row}, store.Micros(now)); err != nil {
			return err
		}
		if out, err = deliveryByEvent(ctx, tx, ep.ID, evID); err != nil {
			return err
		}
		return tx.Notify(ctx, DueTopic, p.OrgID)
	})
	return out, err
}

const deliveryCols = `id, endpoint_id, event_id, event_type, event_seq, status, attempts, next_attempt_at, last_attempt_at,
	last_status_code, last_error, created_at, updated_at`

func scanDelivery(sc interface{ Scan(...any) error }) (WebhookDelivery, error) {
	var (
		d                        WebhookDelivery
		seq, next, last, cr, upd int64
	)
	if err := sc.Scan(&d.ID, &d.EndpointID, &d.EventID, &d.EventType, &seq, &d.Status, &d.Attempts, &next, &last,
		&d.LastStatusCode, &d.LastError, &cr, &upd); err != nil {
		return WebhookDelivery{}, err
	}
	d.Sequence = strconv.FormatInt(seq, 10)
	d.NextAttemptAt = store.NullTime(sql.NullInt64{Int64: next, Valid: next != 0})
	d.LastAttemptAt = store.NullTime(sql.NullInt64{Int64: last, Valid: last != 0})
	d.CreatedAt, d.UpdatedAt = store.Time(cr), store.Time(upd)
	return d, nil
}

func deliveryByEvent(ctx context.Context, q store.Querier, endpointID, eventID string) (WebhookDelivery, error) {
	return scanDelivery(q.QueryRowContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`,
		endpointID, eventID))
}

func getDelivery(ctx context.Context, q store.Querier, orgID, id string) (WebhookDelivery, error) {
	d, err := scanDelivery(q.QueryRowContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return WebhookDelivery{}, apierr.NotFound("webhook delivery")
	}
	return d, err
}

// GetDelivery returns one delivery of p's organization.
func (s *Service) GetDelivery(ctx context.Context, p *auth.Principal, id string) (WebhookDelivery, error) {
	return getDelivery(ctx, s.db, p.OrgID, id)
}

// Deliveries lists an endpoint's deliveries newest first, up to limit,
// after the delivery id `after` when not empty.
func (s *Service) Deliveries(ctx context.Context, p *auth.Principal, endpointID string, limit int, after string) ([]WebhookDelivery, error) {
	if _, err := getEndpoint(ctx, s.db, p.OrgID, endpointID); err != nil {
		return nil, err
	}
	if after == "" {
		after = "whd_zzzzzzzzzzzzzzzzzzzzzzzzzz"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE endpoint_id = $1 AND id < $2
		ORDER BY id DESC LIMIT $3`, endpointID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list deliveries: %w", err)
	}
	return store.ScanAll(rows, scanDelivery)
}

// requeue moves a delivery back to pending, due now, with a fresh series of
// attempts; the next attempt is signed with the endpoint's current secret.
func requeue(ctx context.Context, tx *store.Tx, id string, now int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $1,
		leased_until = 0, updated_at = $1 WHERE id = $2`, now, id)
	return err
}

// Replay sends one failed, dead or skipped delivery again. The endpoint
// must be active (a paused one would only skip it again). It spends one
// unit of the tests-and-replays budget.
func (s *Service) Replay(ctx context.Context, p *auth.Principal, id string) (WebhookDelivery, error) {
	now := s.now()
	var out WebhookDelivery
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		d, err := getDelivery(ctx, tx, p.OrgID, id)
		if err != nil {
			return err
		}
		ep, err := getEndpoint(ctx, tx, p.OrgID, d.EndpointID)
		if err != nil {
			return err
		}
		if ep.Status != EndpointActive {
			return apierr.Conflict(apierr.CodeInvalidState, "the endpoint is %s", ep.Status).WithHint("set its status to active first")
		}
		switch d.Status {
		case StatusFailed, StatusDead, StatusSkipped:
		default:
			return apierr.Conflict(apierr.CodeInvalidState, "the delivery is %s; only failed, dead and skipped deliveries are replayed", d.Status)
		}
		if _, err := takeBudget(ctx, tx, p.OrgID, budgetTests, 1, TestBudgetPerHour, now); err != nil {
			return err
		}
		if err := requeue(ctx, tx, id, store.Micros(now)); err != nil {
			return err
		}
		if err := audit.Record(ctx, tx, p.OrgID, p, "webhook.replay", audit.Target{Type: "webhook_delivery", ID: id}, nil); err != nil {
			return err
		}
		if out, err = getDelivery(ctx, tx, p.OrgID, id); err != nil {
			return err
		}
		return tx.Notify(ctx, DueTopic, p.OrgID)
	})
	return out, err
}

// Redelivery is the answer of a redeliver.
type Redelivery struct {
	Queued  int  `json:"queued" doc:"Deliveries moved back to pending."`
	HasMore bool `json:"has_more" doc:"More deliveries match: call again (the same since) to queue the next ones."`
}

// Redeliver queues an active endpoint's deliveries created at or after
// since whose status is one of statuses (default failed, dead, skipped),
// oldest first, at most 1,000 per call and within the organization's
// 5,000-per-hour budget.
func (s *Service) Redeliver(ctx context.Context, p *auth.Principal, endpointID string, since time.Time, statuses []string) (Redelivery, error) {
	if len(statuses) == 0 {
		statuses = []string{StatusFailed, StatusDead, StatusSkipped}
	}
	want := map[string]bool{}
	for _, st := range statuses {
		switch st {
		case StatusFailed, StatusDead, StatusSkipped:
			want[st] = true
		default:
			return Redelivery{}, apierr.Invalid("statuses", "%q is not one of failed, dead, skipped", st)
		}
	}
	now := s.now()
	var out Redelivery
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		ep, err := getEndpoint(ctx, tx, p.OrgID, endpointID)
		if err != nil {
			return err
		}
		if ep.Status != EndpointActive {
			return apierr.Conflict(apierr.CodeInvalidState, "the endpoint is %s; redeliver needs an active endpoint", ep.Status).
				WithHint("set its status to active first")
		}
		rows, err := tx.QueryContext(ctx, `SELECT id, status FROM webhook_deliveries
			WHERE endpoint_id = $1 AND created_at >= $2 AND status IN ('failed', 'dead', 'skipped')
			ORDER BY created_at, id`, endpointID, store.Micros(since))
		if err != nil {
			return fmt.Errorf("find deliveries: %w", err)
		}
		var match []string
		for rows.Next() {
			var id, st string
			if err := rows.Scan(&id, &st); err != nil {
				rows.Close()
				return err
			}
			if want[st] {
				match = append(match, id)
				if len(match) > RedeliverPerCall {
					break
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(match) == 0 {
			return nil
		}
		n := min(len(match), RedeliverPerCall)
		granted, err := takeBudget(ctx, tx, p.OrgID, budgetRedeliver, n, RedeliverPerHour, now)
		if err != nil {
			return err
		}
		for _, id := range match[:granted] {
			if err := requeue(ctx, tx, id, store.Micros(now)); err != nil {
				return err
			}
		}
		out = Redelivery{Queued: granted, HasMore: len(match) > granted}
		if err := audit.Record(ctx, tx, p.OrgID, p, "webhook.redeliver", audit.Target{Type: "webhook_endpoint", ID: endpointID},
			map[string]any{"since": since, "statuses": statuses, "queued": granted}); err != nil {
			return err
		}
		return tx.Notify(ctx, DueTopic, p.OrgID)
	})
	return out, err
}
