package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Usage is an organization's mailbox usage against its plan.
type Usage struct {
	StoredBytes int64 `json:"stored_bytes"`
	// SpooledBytes is what accepted messages not yet stored will add.
	SpooledBytes       int64 `json:"spooled_bytes"`
	MaxMailboxBytes    int64 `json:"max_mailbox_bytes"`
	InboundThisMonth   int64 `json:"inbound_this_month"`
	MaxInboundPerMonth int64 `json:"max_inbound_per_month"`
}

func month(t time.Time) string { return t.UTC().Format("2006-01") }

// addUsage adds a stored message's bytes (negative when deleting) and, for
// inbound mail, one to this month's inbound count.
func addUsage(ctx context.Context, tx *store.Tx, orgID string, bytes int64, inbound bool, at time.Time) error {
	n := int64(0)
	if inbound {
		n = 1
	}
	return addUsageN(ctx, tx, orgID, bytes, n, at)
}

// addUsageN is addUsage for n inbound messages at once.
func addUsageN(ctx context.Context, tx *store.Tx, orgID string, bytes, n int64, at time.Time) error {
	// The event log's lock before the counters' row: a batch of inbound
	// mail appends its events first and adds its usage last, a single
	// message the other way round; without one order two such
	// transactions of an organization deadlock on PostgreSQL.
	if err := events.LockLog(ctx, tx, orgID); err != nil {
		return err
	}
	m := month(at)
	_, err := tx.ExecContext(ctx, `INSERT INTO mail_usage (org_id, stored_bytes, month, month_inbound) VALUES ($1, $2, $3, $4)
		ON CONFLICT (org_id) DO UPDATE SET
			stored_bytes = CASE WHEN mail_usage.stored_bytes + $2 < 0 THEN 0 ELSE mail_usage.stored_bytes + $2 END,
			month_inbound = CASE WHEN mail_usage.month = $3 THEN mail_usage.month_inbound + $4 ELSE $4 END,
			month = $3`, orgID, max(bytes, 0), m, n)
	if err != nil {
		return fmt.Errorf("mail usage: %w", err)
	}
	if bytes < 0 {
		// The insert branch cannot go negative; the update branch above
		// subtracts through the same expression.
		_, err = tx.ExecContext(ctx, `UPDATE mail_usage SET stored_bytes = CASE WHEN stored_bytes + $2 < 0 THEN 0 ELSE stored_bytes + $2 END WHERE org_id = $1`, orgID, bytes)
		if err != nil {
			return fmt.Errorf("mail usage: %w", err)
		}
	}
	return nil
}

// GetUsage reads an organization's usage and its plan's limits.
func GetUsage(ctx context.Context, q store.Querier, orgID string, now time.Time) (Usage, error) {
	o, err := org.GetOrganization(ctx, q, orgID)
	if err != nil {
		return Usage{}, err
	}
	plan := org.Plans[o.Plan]
	u := Usage{MaxMailboxBytes: plan.MaxMailboxBytes, MaxInboundPerMonth: plan.MaxInboundPerMonth}
	var m string
	err = q.QueryRowContext(ctx, `SELECT stored_bytes, spooled_bytes, month, month_inbound FROM mail_usage WHERE org_id = $1`, orgID).
		Scan(&u.StoredBytes, &u.SpooledBytes, &m, &u.InboundThisMonth)
	if errors.Is(err, sql.ErrNoRows) {
		return u, nil
	}
	if err != nil {
		return u, fmt.Errorf("mail usage: %w", err)
	}
	if m != month(now) {
		u.InboundThisMonth = 0
	}
	return u, nil
}

// CheckInboundQuota returns a 402 quota_exceeded error when the organization
// may not receive size bytes of mail now: the month's inbound messages or
// the mailbox storage (stored and spooled) are used up. The SMTP adapter
// turns it into 452.
func CheckInboundQuota(ctx context.Context, q store.Querier, orgID string, size int64, now time.Time) error {
	u, err := GetUsage(ctx, q, orgID, now)
	if err != nil {
		return err
	}
	if u.MaxInboundPerMonth > 0 && u.InboundThisMonth >= u.MaxInboundPerMonth {
		return apierr.QuotaExceeded("inbound_messages", "%d inbound messages this month", u.MaxInboundPerMonth).
			WithHint("the count resets at the start of the next month (UTC), or move to the paid plan")
	}
	if u.MaxMailboxBytes > 0 && u.StoredBytes+u.SpooledBytes+size > u.MaxMailboxBytes {
		return apierr.QuotaExceeded("mailbox_storage", "%d bytes of mail stored", u.MaxMailboxBytes).
			WithHint("delete threads from trash or spam, or move to the paid plan")
	}
	return nil
}

// Usage returns the organization's mailbox usage.
func (s *Service) Usage(ctx context.Context, orgID string) (Usage, error) {
	return GetUsage(ctx, s.db, orgID, s.now())
}

// ReserveInbound counts n inbound messages, bytes in all, for the
// organization in the caller's transaction, or refuses them with the same
// 402 quota_exceeded error as CheckInboundQuota when they would take the
// month's count past the plan's limit, or the stored and spooled mail past
// the storage limit. It is the check that holds: CheckInboundQuota reads
// without a lock and lets concurrent messages all pass at the limit, while
// this one updates the counters' row only while the limit allows, so on
// PostgreSQL concurrent transactions queue on that row and each sees the
// counts the one before it left. The inbound pipeline calls it when it
// spools a message, so a message stored later (NewMessage.InboundCounted)
// is not counted again; the bytes wait in spooled_bytes until the message
// is stored (RecordReservation, SettleReservations). Callers reserving for
// several organizations in one transaction take them in the order of their
// ids, as the pipeline's spool does.
func ReserveInbound(ctx context.Context, tx *store.Tx, orgID string, n, bytes int64, now time.Time) error {
	o, err := org.GetOrganization(ctx, tx, orgID)
	if err != nil {
		return err
	}
	plan := org.Plans[o.Plan]
	maxN, maxBytes := plan.MaxInboundPerMonth, plan.MaxMailboxBytes
	if maxN <= 0 {
		maxN = math.MaxInt64 / 2
	}
	if maxBytes <= 0 {
		maxBytes = math.MaxInt64 / 2
	}
	m := month(now)
	for attempt := 0; ; attempt++ {
		res, err := tx.ExecContext(ctx, `UPDATE mail_usage SET
				month_inbound = CASE WHEN month = $2 THEN month_inbound + $3 ELSE $3 END,
				month = $2,
				spooled_bytes = spooled_bytes + $5
			WHERE org_id = $1 AND (month <> $2 OR month_inbound + $3 <= $4) AND stored_bytes + spooled_bytes + $5 <= $6`,
			orgID, m, n, maxN, bytes, maxBytes)
		if err != nil {
			return fmt.Errorf("mail usage: %w", err)
		}
		if k, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("mail usage: %w", err)
		} else if k == 1 {
			return nil
		}
		if attempt > 0 {
			break
		}
		// No row matched: over a limit, or the organization's first mail
		// (no counters yet). Create the row if missing and try once more.
		res, err = tx.ExecContext(ctx, `INSERT INTO mail_usage (org_id, stored_bytes, month, month_inbound) VALUES ($1, 0, $2, 0)
			ON CONFLICT (org_id) DO NOTHING`, orgID, m)
		if err != nil {
			return fmt.Errorf("mail usage: %w", err)
		}
		if k, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("mail usage: %w", err)
		} else if k == 0 {
			break // the row was there: a limit refused
		}
	}
	// Refused: say which limit, from the row as it stands.
	if err := CheckInboundQuota(ctx, tx, orgID, bytes, now); err != nil {
		return err
	}
	// Both limits have room for one more but not for n at once.
	return apierr.QuotaExceeded("inbound_messages", "%d inbound messages this month", plan.MaxInboundPerMonth).
		WithHint("the count resets at the start of the next month (UTC), or move to the paid plan")
}

// RecordReservation notes that queue row queueID holds bytes of the
// organization's spooled_bytes (taken by ReserveInbound in the same
// transaction), for SettleReservations to give back.
func RecordReservation(ctx context.Context, tx *store.Tx, queueID, orgID string, bytes int64) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO inbound_reservations (queue_id, org_id, bytes) VALUES ($1, $2, $3)`, queueID, orgID, bytes); err != nil {
		return fmt.Errorf("mail usage: %w", err)
	}
	return nil
}

// SettleReservations gives back the spooled bytes reserved for the queue
// rows ids, which the caller's transaction has stored (their bytes now in
// stored_bytes) or dropped. Rows spooled before reservations existed have
// none. It takes the counters' rows last, after Batch.Flush, so it keeps
// the lock order of addUsageN.
func SettleReservations(ctx context.Context, tx *store.Tx, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := store.InList(ids)
	if _, err := tx.ExecContext(ctx, `UPDATE mail_usage SET spooled_bytes = CASE WHEN mail_usage.spooled_bytes > r.total THEN mail_usage.spooled_bytes - r.total ELSE 0 END
		FROM (SELECT org_id, SUM(bytes) AS total FROM inbound_reservations WHERE queue_id IN (`+in+`) GROUP BY org_id) AS r
		WHERE mail_usage.org_id = r.org_id`, args...); err != nil {
		return fmt.Errorf("mail usage: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM inbound_reservations WHERE queue_id IN (`+in+`)`, args...); err != nil {
		return fmt.Errorf("mail usage: %w", err)
	}
	return nil
}

// ReleaseInbound gives back n inbound messages of bytes in all that
// ReserveInbound counted in the same transaction for a message that was
// then not accepted.
func ReleaseInbound(ctx context.Context, tx *store.Tx, orgID string, n, bytes int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE mail_usage SET
			month_inbound = CASE WHEN month <> $2 THEN month_inbound WHEN month_inbound > $3 THEN month_inbound - $3 ELSE 0 END,
			spooled_bytes = CASE WHEN spooled_bytes > $4 THEN spooled_bytes - $4 ELSE 0 END
		WHERE org_id = $1`, orgID, month(now), n, bytes)
	if err != nil {
		return fmt.Errorf("mail usage: %w", err)
	}
	return nil
}
