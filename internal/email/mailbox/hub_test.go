package mailbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func appendEvent(t *testing.T, db *store.DB, org, inbox string) events.Event {
	t.Helper()
	var e events.Event
	err := db.InTx(context.Background(), func(tx *store.Tx) error {
		var err error
		e, err = events.Append(context.Background(), tx, org, inbox, events.MessageReceived, map[string]any{"n": 1})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestHub checks that a commit wakes exactly the waiters of its inbox and
// hands them the events, through the store's notifications (LISTEN/NOTIFY
// on PostgreSQL).
func TestHub(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		hub := mailbox.NewHub(db, nil)
		go hub.Run(ctx)
		time.Sleep(100 * time.Millisecond) // the PostgreSQL listener connects

		const n = 200
		var mine, others []*mailbox.Waiter
		for i := range n {
			w, err := hub.Register(ctx, "org_a", "inb_1")
			if err != nil {
				t.Fatal(err)
			}
			mine = append(mine, w)
			if i%10 == 0 {
				o, err := hub.Register(ctx, "org_a", "inb_2")
				if err != nil {
					t.Fatal(err)
				}
				others = append(others, o)
			}
		}
		if got := hub.Waiting(); got != n+len(others) {
			t.Fatalf("waiting %d", got)
		}
		e := appendEvent(t, db, "org_a", "inb_1")
		appendEvent(t, db, "org_b", "inb_1") // another organization: nobody waits there
		for i, w := range mine {
			select {
			case got := <-w.C:
				if len(got) != 1 || got[0].ID != e.ID {
					t.Fatalf("waiter %d got %v", i, got)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("waiter %d not woken", i)
			}
		}
		for _, w := range others {
			select {
			case got := <-w.C:
				t.Fatalf("waiter of another inbox woken with %v", got)
			case <-time.After(50 * time.Millisecond):
			}
		}
		for _, w := range append(mine, others...) {
			hub.Unregister(w)
		}
		if hub.Waiting() != 0 {
			t.Errorf("waiters left: %d", hub.Waiting())
		}
	})
}
