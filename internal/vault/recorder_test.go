package vault

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func newTestRecorder(t *testing.T, db *store.DB, linger time.Duration) (*recorder, *auth.Principal) {
	t.Helper()
	ctx := context.Background()
	err := db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, $2, $3, $4, $5)`,
			"org_rec", "Rec", "paid", "rec.test", store.Micros(time.Now()))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return &recorder{db: db, linger: linger}, auth.NewPrincipal(auth.KindAgent, "org_rec", "agt_rec", "tok_rec", "t", nil)
}

// Under concurrent reads the flush waits for more entries, so they share one
// transaction (one commit time for all), and every caller returns only once
// its entry is committed.
func TestRecorderGathersConcurrentReadsIntoOneCommit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r, p := newTestRecorder(t, db, 500*time.Millisecond)
		r.busy = true // as after a transaction of several entries
		const n = 10
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Go(func() {
				errs <- r.record(ctx, "org_rec", p, "vault.read", audit.Target{Type: "credential", ID: "crd_1"}, `{}`)
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		// RecordMany stamps one time per transaction.
		var rows, times int
		if err := db.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT at) FROM audit_events WHERE org_id = $1`, "org_rec").Scan(&rows, &times); err != nil {
			t.Fatal(err)
		}
		if rows != n || times != 1 {
			t.Fatalf("%d entries in %d commits, want %d in 1", rows, times, n)
		}
		if !r.busy {
			t.Fatal("a commit of several entries did not mark the recorder busy")
		}
	})
}

// A lone read does not wait for company.
func TestRecorderCommitsALoneReadAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r, p := newTestRecorder(t, db, time.Hour)
		start := time.Now()
		if err := r.record(ctx, "org_rec", p, "vault.read", audit.Target{Type: "credential", ID: "crd_1"}, `{}`); err != nil {
			t.Fatal(err)
		}
		// Generous: only the one-hour linger must not have been applied.
		if took := time.Since(start); took > time.Minute {
			t.Fatalf("a lone read waited %s", took)
		}
		if r.busy {
			t.Fatal("a commit of one entry marked the recorder busy")
		}
	})
}

// With a background sync window a read returns once its entry is committed
// (visible to every reader, safe from a crash of agentsvc) without waiting
// for the disk; without one it waits for the disk too.
func TestRecorderSyncWindow(t *testing.T) {
	for _, tc := range []struct {
		window    time.Duration
		waitsSync bool
	}{{time.Hour, false}, {0, true}} {
		t.Run(tc.window.String(), func(t *testing.T) {
			db := storetest.Open(t, store.SQLite)
			ctx := context.Background()
			r, p := newTestRecorder(t, db, 0)
			r.syncWithin = tc.window
			before := db.LogSyncs()
			if err := r.record(ctx, "org_rec", p, "vault.read", audit.Target{Type: "credential", ID: "crd_1"}, `{}`); err != nil {
				t.Fatal(err)
			}
			if synced := db.LogSyncs() != before; synced != tc.waitsSync {
				t.Fatalf("read waited for the disk: %v, want %v", synced, tc.waitsSync)
			}
			var n int
			if err := db.QueryRowContext(ctx, `SELECT count(*) FROM audit_events WHERE org_id = $1`, "org_rec").Scan(&n); err != nil || n != 1 {
				t.Fatalf("entry not committed when the read returned: %d, %v", n, err)
			}
		})
	}
}
