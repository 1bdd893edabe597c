package webhooks

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/store"
)

// OwnerNotifier tells an organization's owners something that needs their
// attention (an endpoint was disabled). The app wires it to the outbound
// mail pipeline once that exists.
type OwnerNotifier interface {
	NotifyOwners(ctx context.Context, orgID, subject, text string) error
}

// AuditNotifier is the OwnerNotifier used until outbound mail is wired: it
// logs the notice and records it in the organization's audit history
// (action owners.notified), where the dashboard shows it.
type AuditNotifier struct {
	DB     *store.DB
	Logger *slog.Logger
}

// NotifyOwners logs and records the notice.
func (n AuditNotifier) NotifyOwners(ctx context.Context, orgID, subject, text string) error {
	if n.Logger != nil {
		n.Logger.Warn("owner notice", "org", orgID, "subject", subject)
	}
	return n.DB.InTx(ctx, func(tx *store.Tx) error {
		return audit.Record(ctx, tx, orgID, audit.System, "owners.notified", audit.Target{Type: "organization", ID: orgID},
			map[string]any{"subject": subject, "text": text})
	})
}

// Sweep deletes deliveries older than 30 days (skipped ones included) that
// are not waiting for an attempt, and spent budget windows. It returns how
// many deliveries it removed.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	now := s.now()
	cutoff := store.Micros(now.Add(-Retention))
	// In batches, skipping rows a worker holds: a sweep never waits on (or
	// deadlocks with) delivery work, and what it skips goes next time.
	var n int64
	for {
		res, err := s.db.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE id IN (
			SELECT id FROM webhook_deliveries WHERE created_at < $1
			AND (status IN ('succeeded', 'dead', 'skipped') OR updated_at < $1)
			ORDER BY created_at LIMIT 1000 FOR UPDATE SKIP LOCKED)`, cutoff)
		if err != nil {
			return n, fmt.Errorf("sweep deliveries: %w", err)
		}
		k, _ := res.RowsAffected()
		n += k
		if k < 1000 {
			break
		}
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM webhook_budgets WHERE window_start < $1`, store.Micros(now.Add(-2*time.Hour))); err != nil {
		return n, fmt.Errorf("sweep budgets: %w", err)
	}
	return n, nil
}

func (s *Service) sweepLoop(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if n, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("webhook sweep failed", "err", err)
		} else if n > 0 {
			s.log.Info("webhook deliveries swept", "n", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
