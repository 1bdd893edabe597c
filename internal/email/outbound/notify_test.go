package outbound_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/org"
)

// TestNotifyOwners: a service notice reaches the organization's owners
// through the outbound queue (the dev-mode capture here) and is audited.
func TestNotifyOwners(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		c, err := env.App.Orgs.CreateOrganization(ctx, org.NewOrganization{Name: "Notice Org", Plan: org.PlanPaid,
			MailDomain: "notice.test", OwnerEmail: "boss@example.com", OwnerPassword: "correct horse battery"})
		if err != nil {
			t.Fatal(err)
		}
		if err := env.App.Outbound.NotifyOwners(ctx, c.Organization.ID, "Webhook endpoint disabled\r\nBcc: x@evil.test", "It failed for 3 days."); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(15 * time.Second)
		for {
			r := env.Must(200, env.Do("GET", "/api/v1/outbound-captures", c.OrgKeySecret, nil))
			body := string(r.Body)
			if strings.Contains(body, "boss@example.com") && strings.Contains(body, "Webhook endpoint disabled") {
				if strings.Contains(body, "Bcc") && strings.Contains(body, "x@evil.test") && !strings.Contains(body, "disabledBcc") {
					t.Fatalf("the subject's line break survived: %s", body)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no captured notice: %s", body)
			}
			time.Sleep(100 * time.Millisecond)
		}
		a := env.Must(200, env.Do("GET", "/api/v1/audit-events?action=owners.notified", c.OrgKeySecret, nil))
		if !strings.Contains(string(a.Body), "boss@example.com") {
			t.Fatalf("notice not audited: %s", a.Body)
		}
	})
}
