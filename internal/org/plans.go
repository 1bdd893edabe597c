package org

import (
	"context"
	"fmt"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Plan names.
const (
	PlanSandbox = "sandbox"
	PlanPaid    = "paid"
)

// Plan holds an organization's quotas. Later features add theirs here, so
// every quota is in one table and every refusal is a 402 naming it.
type Plan struct {
	Name string
	// MaxAgents caps agents (each with its inbox).
	MaxAgents int
	// MaxInboundPerMonth caps inbound messages accepted per calendar month
	// (UTC) across the organization's inboxes; over it SMTP answers 452.
	MaxInboundPerMonth int64
	// MaxMailboxBytes caps the raw size of all stored mail; over it SMTP
	// answers 452 and the API 402 where it would store more.
	MaxMailboxBytes int64
	// MachineSecondsPerMonth is the machine-time allowance: seconds machines
	// of the organization may spend running per calendar month (UTC).
	MachineSecondsPerMonth int64
	// OutboundVerifiedOnly limits outbound mail to verified recipients
	// (and the organization's own inboxes).
	OutboundVerifiedOnly bool
	// MaxSendsPerDay and MaxSendsPerMonth cap messages sent (UTC calendar
	// day and month); 0 means no cap.
	MaxSendsPerDay, MaxSendsPerMonth int64
	// OutboundAttachments allows attachments on outbound mail.
	OutboundAttachments bool
	// MaxOutboundRecipientsPerMonth caps outbound recipients per UTC
	// calendar month; 0 means no cap.
	MaxOutboundRecipientsPerMonth int64
}

// Plans are the plans on offer.
var Plans = map[string]Plan{
	PlanSandbox: {Name: PlanSandbox, MaxAgents: 5, MaxInboundPerMonth: 3000, MaxMailboxBytes: 1 << 30,
		OutboundVerifiedOnly: true, MaxSendsPerDay: 5, MaxSendsPerMonth: 25,
		MachineSecondsPerMonth: 10 * 3600},
	PlanPaid: {Name: PlanPaid, MaxAgents: 10000, MaxInboundPerMonth: 10_000_000, MaxMailboxBytes: 1 << 40,
		OutboundAttachments: true, MaxOutboundRecipientsPerMonth: 1_000_000,
		MachineSecondsPerMonth: 1000 * 3600},
}

func checkAgentQuota(ctx context.Context, tx *store.Tx, orgID string) error {
	o, err := GetOrganization(ctx, tx, orgID)
	if err != nil {
		return err
	}
	plan := Plans[o.Plan]
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM agents WHERE org_id = $1`, orgID).Scan(&n); err != nil {
		return fmt.Errorf("count agents: %w", err)
	}
	if n >= plan.MaxAgents {
		return apierr.QuotaExceeded("agents", "the %s plan allows %d agents", plan.Name, plan.MaxAgents).
			WithHint("delete an agent or move the organization to the paid plan")
	}
	return nil
}
