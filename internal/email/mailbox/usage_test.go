package mailbox

import (
	"context"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// A batch of inbound mail appends its events and adds its usage last; a
// single message adds usage and then appends. On PostgreSQL the two orders
// deadlocked (seen as a 500 on a send racing inbound mail) until usage
// updates took the event-log lock first. Here the batch holds the log's
// lock while the single message starts: the single message must wait, not
// take the counters' row and deadlock.
func TestUsageAndEventLogLockInOneOrder(t *testing.T) {
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	const org = "org_lockorder"
	if err := db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, 'x', 'paid', 'x.test', 1)`, org)
		if err != nil {
			return err
		}
		return addUsage(ctx, tx, org, 1, false, time.Now())
	}); err != nil {
		t.Fatal(err)
	}
	appended := make(chan struct{})
	singleStarted := make(chan struct{})
	batch := make(chan error, 1)
	go func() {
		batch <- db.InTx(ctx, func(tx *store.Tx) error {
			if _, err := events.Append(ctx, tx, org, "", events.InboxCreated, nil); err != nil {
				return err
			}
			close(appended)
			<-singleStarted
			time.Sleep(300 * time.Millisecond) // let the single message reach its locks
			return addUsageN(ctx, tx, org, 10, 1, time.Now())
		})
	}()
	<-appended
	single := make(chan error, 1)
	go func() {
		single <- db.InTx(ctx, func(tx *store.Tx) error {
			close(singleStarted)
			if err := addUsage(ctx, tx, org, 5, true, time.Now()); err != nil {
				return err
			}
			_, err := events.Append(ctx, tx, org, "", events.InboxCreated, nil)
			return err
		})
	}()
	for _, ch := range []chan error{batch, single} {
		select {
		case err := <-ch:
			if err != nil {
				t.Fatalf("a transaction failed: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the transactions did not finish")
		}
	}
	u, err := GetUsage(ctx, db, org, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if u.StoredBytes != 16 || u.InboundThisMonth != 2 {
		t.Fatalf("usage %+v, want 16 bytes and 2 inbound", u)
	}
}
