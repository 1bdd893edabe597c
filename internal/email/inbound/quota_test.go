package inbound_test

import (
	"fmt"
	"net/smtp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email/inbound"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
)

// TestInboundQuotaUnderBurst: with room for 20 more messages this month
// and eight senders delivering at once, exactly 20 get 250 and are stored,
// every other one gets 452, and the month's count ends at the limit. (The
// count used to be taken when a message was stored, so messages between
// their 250 and their storage went past the check: a burst at the limit
// overshot it.)
func TestInboundQuotaUnderBurst(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("quota", auth.EmailRead)
		mustSend(t, env, "first@burst.example", []string{a.Address}, mail("first@burst.example", a.Address, "first", "hello"))
		waitStored(t, env, a, 1)
		u, err := mailbox.GetUsage(t.Context(), env.App.DB, env.Creds.OrganizationID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		const room = 20
		if _, err := env.App.DB.ExecContext(t.Context(), `UPDATE mail_usage SET month_inbound = $2 WHERE org_id = $1`,
			env.Creds.OrganizationID, u.MaxInboundPerMonth-room); err != nil {
			t.Fatal(err)
		}

		const senders, each = 8, 8
		accepted, refused := burst(t, env, a.Address, senders, each)
		if accepted != room || refused != senders*each-room {
			t.Errorf("%d accepted and %d refused, want %d and %d", accepted, refused, room, senders*each-room)
		}
		waitStored(t, env, a, 1+accepted)
		time.Sleep(200 * time.Millisecond) // nothing more arrives
		r := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/messages?limit=100", a.Token, nil))
		if n := len(r.JSON()["data"].([]any)); n != 1+accepted {
			t.Errorf("%d messages stored, want %d", n, 1+accepted)
		}
		u, err = mailbox.GetUsage(t.Context(), env.App.DB, env.Creds.OrganizationID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if u.InboundThisMonth != u.MaxInboundPerMonth {
			t.Errorf("inbound this month %d, want the limit %d", u.InboundThisMonth, u.MaxInboundPerMonth)
		}
	})
}

// TestStorageQuotaUnderBurst: with room in the mailbox storage for about
// twenty messages and eight senders delivering at once, the stored mail
// ends within the limit, each refused message got 452, and nothing stays
// reserved once all is stored. (Only stored bytes used to be checked, so
// the messages between their 250 and their storage went past the check: a
// burst at the limit overshot it.)
func TestStorageQuotaUnderBurst(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("storage", auth.EmailRead)
		mustSend(t, env, "first@burst.example", []string{a.Address}, mail("first@burst.example", a.Address, "first", "hello"))
		waitStored(t, env, a, 1)
		u, err := mailbox.GetUsage(t.Context(), env.App.DB, env.Creds.OrganizationID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		one := u.StoredBytes // the first message's size; the burst's are within a few bytes of it
		if _, err := env.App.DB.ExecContext(t.Context(), `UPDATE mail_usage SET stored_bytes = $2 WHERE org_id = $1`,
			env.Creds.OrganizationID, u.MaxMailboxBytes-20*one); err != nil {
			t.Fatal(err)
		}

		accepted, _ := burst(t, env, a.Address, 8, 8)
		if accepted < 15 || accepted > 21 {
			t.Errorf("%d accepted, want about 20 (the room left)", accepted)
		}
		waitStored(t, env, a, 1+accepted)
		time.Sleep(200 * time.Millisecond) // nothing more arrives
		u, err = mailbox.GetUsage(t.Context(), env.App.DB, env.Creds.OrganizationID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if u.StoredBytes > u.MaxMailboxBytes {
			t.Errorf("stored %d bytes, over the limit %d", u.StoredBytes, u.MaxMailboxBytes)
		}
		if u.SpooledBytes != 0 {
			t.Errorf("%d bytes still reserved after every message was stored", u.SpooledBytes)
		}
		var left int
		if err := env.App.DB.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM inbound_reservations`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left != 0 {
			t.Errorf("%d reservations left", left)
		}
	})
}

// burst has senders sessions deliver each messages apiece to address at
// once and counts the 250s and the 452s; any other answer fails the test.
func burst(t *testing.T, env *apptest.Env, address string, senders, each int) (accepted, refused int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			// One session per sender, as a mail server delivering a queue
			// would: the per-address connection limit stays out of the way.
			c, err := smtp.Dial(env.SMTPAddr())
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			for i := range each {
				from := fmt.Sprintf("s%d@burst.example", s)
				err := sendOn(c, from, address, mail(from, address, fmt.Sprintf("burst %d/%d", s, i), "hello"))
				mu.Lock()
				switch {
				case err == nil:
					accepted++
				case smtpCode(err) == 452:
					refused++
				default:
					t.Errorf("sender %d message %d: %v", s, i, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return accepted, refused
}

// sendOn delivers one message on an open session; after a refusal the
// session is reset for the next message.
func sendOn(c *smtp.Client, from, to, raw string) error {
	err := func() error {
		if err := c.Mail(from); err != nil {
			return err
		}
		if err := c.Rcpt(to); err != nil {
			return err
		}
		w, err := c.Data()
		if err != nil {
			return err
		}
		if _, err := w.Write([]byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
			return err
		}
		return w.Close()
	}()
	if err != nil {
		_ = c.Reset()
	}
	return err
}

// TestSpoolGroupWithUnknownOrganization: in one spool transaction, a
// message whose organization cannot be found (it cannot be counted) is
// spooled without a count, and the messages beside it are spooled and
// counted as usual: one message must not fail the whole group.
func TestSpoolGroupWithUnknownOrganization(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ctx := t.Context()
		p := inbound.New(env.App.DB, env.App.Mailbox, inbound.Config{}, nil)
		before, err := mailbox.GetUsage(ctx, env.App.DB, env.Creds.OrganizationID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		answers, err := inbound.SpoolFor(ctx, p, []map[string]int64{
			{env.Creds.OrganizationID: 1}, {"org_gone": 1}, {env.Creds.OrganizationID: 2}})
		if err != nil {
			t.Fatalf("the group failed: %v", err)
		}
		for i, a := range answers {
			if a != nil {
				t.Errorf("message %d: %v", i, a)
			}
		}
		var queued int
		if err := env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM inbound_queue`).Scan(&queued); err != nil {
			t.Fatal(err)
		}
		if queued != 3 {
			t.Errorf("%d messages spooled, want 3", queued)
		}
		after, err := mailbox.GetUsage(ctx, env.App.DB, env.Creds.OrganizationID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if after.InboundThisMonth != before.InboundThisMonth+3 {
			t.Errorf("inbound this month %d, want %d", after.InboundThisMonth, before.InboundThisMonth+3)
		}
	})
}
