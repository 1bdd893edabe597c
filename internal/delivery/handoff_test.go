package delivery_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/delivery/deliverytest"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// Rows queued through Service.Enqueue while the workers run are leased at
// insert and handed over with the message in memory after the commit: the
// message goes out even though no blob exists at its path (a claimed row
// would read it), and a rolled-back send hands nothing over.
func TestFreshRowsHandedOverAfterCommit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sink := deliverytest.StartSink(t)
		zone := deliverytest.NewZone()
		zone.MX("fresh.test", 10, "in.fresh.test")
		zone.A("in.fresh.test", "127.0.0.1")
		q := startQueue(t, db, delivery.Config{Port: sink.Port(), Resolver: senderauth.NewResolver(deliverytest.StartDNS(t, zone))})
		// A claimed row first: once it is delivered, the workers run.
		warm := q.enqueue("fresh-warmup", "warm@fresh.test")
		q.waitState(warm["warm@fresh.test"], delivery.StateDelivered)

		raw := []byte("From: a@out.test\r\nTo: x@fresh.test\r\nSubject: handed over\r\nMessage-ID: <handed@out.test>\r\n\r\nHello.\r\n")
		abort := errors.New("abort")
		err := db.InTx(ctx, func(tx *store.Tx) error {
			if _, err := q.svc.Enqueue(ctx, tx, delivery.Job{OrgID: "org_test", Domain: "out.test", BlobPath: "outbound/none.eml",
				Recipients: []string{"rolledback@fresh.test"}}, raw); err != nil {
				return err
			}
			return abort
		})
		if !errors.Is(err, abort) {
			t.Fatal(err)
		}
		var rs []delivery.Recipient
		err = db.InTx(ctx, func(tx *store.Tx) error {
			var err error
			rs, err = q.svc.Enqueue(ctx, tx, delivery.Job{OrgID: "org_test", Domain: "out.test", BlobPath: "outbound/none.eml",
				Recipients: []string{"fresh@fresh.test"}}, raw)
			if err != nil {
				return err
			}
			var leased bool
			if err := tx.QueryRowContext(ctx, `SELECT leased FROM outbound_queue WHERE id = $1`, rs[0].ID).Scan(&leased); err != nil {
				return err
			}
			if !leased {
				t.Error("a fresh row is not leased at insert")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		q.waitState(rs[0].ID, delivery.StateDelivered)
		time.Sleep(100 * time.Millisecond) // a rolled-back row would be on its way by now
		got := map[string]int{}
		for _, r := range sink.Received() {
			for _, rc := range r.Recipients {
				got[rc]++
			}
		}
		if got["fresh@fresh.test"] != 1 || got["rolledback@fresh.test"] != 0 {
			t.Errorf("sink got %v", got)
		}
	})
}

// Rows still waiting in memory when the service stops are given back to
// the queue (not leased) instead of waiting for their lease to lapse.
func TestShutdownReleasesWaitingRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sink := deliverytest.StartSink(t)
		zone := deliverytest.NewZone()
		zone.MX("slow.test", 10, "in.slow.test")
		zone.A("in.slow.test", "127.0.0.1")
		q := startQueue(t, db, delivery.Config{Port: sink.Port(), Workers: 1, Resolver: senderauth.NewResolver(deliverytest.StartDNS(t, zone))})
		warm := q.enqueue("slow-warmup", "warm@slow.test")
		q.waitState(warm["warm@slow.test"], delivery.StateDelivered)
		sink.SetDelay(300 * time.Millisecond) // the one worker is busy with the first row
		raw := []byte("From: a@out.test\r\nTo: x@slow.test\r\nSubject: waiting\r\nMessage-ID: <waiting@out.test>\r\n\r\nHello.\r\n")
		var rs []delivery.Recipient
		err := db.InTx(ctx, func(tx *store.Tx) error {
			var err error
			rs, err = q.svc.Enqueue(ctx, tx, delivery.Job{OrgID: "org_test", Domain: "out.test", BlobPath: "outbound/none.eml",
				Recipients: []string{"a@slow.test", "b@slow.test", "c@slow.test"}}, raw)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		q.stop()
		for _, r := range rs[1:] {
			var leased bool
			var state string
			if err := db.QueryRowContext(ctx, `SELECT leased, state FROM outbound_queue WHERE id = $1`, r.ID).Scan(&leased, &state); err != nil {
				t.Fatal(err)
			}
			if leased || state != delivery.StateQueued {
				t.Errorf("%s after shutdown: leased %v, state %s; want released and queued", r.Address, leased, state)
			}
		}
	})
}
