package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if err := db.Migrate(context.Background()); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
	})
}

func TestPlaceholdersBindByNumber(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		err := db.InTx(ctx, func(tx *store.Tx) error {
			// $2 before $1: SQLite must bind by number, not by position.
			_, err := tx.ExecContext(ctx, `INSERT INTO organizations (name, id, plan, mail_domain, created_at) VALUES ($2, $1, $3, $4, $5)`,
				"org_1", "Acme", "paid", "acme.test", store.Micros(time.Now()))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var name string
		if err := db.QueryRowContext(ctx, `SELECT name FROM organizations WHERE id = $1`, "org_1").Scan(&name); err != nil {
			t.Fatal(err)
		}
		if name != "Acme" {
			t.Fatalf("name = %q, want Acme", name)
		}
	})
}

func TestUniqueViolationAndRollback(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		insert := func(tx *store.Tx, id string) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, 'x', 'paid', 'x.test', 1)`, id)
			return err
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return insert(tx, "org_a") }); err != nil {
			t.Fatal(err)
		}
		err := db.InTx(ctx, func(tx *store.Tx) error { return insert(tx, "org_a") })
		if !store.IsUniqueViolation(err) {
			t.Fatalf("IsUniqueViolation(%v) = false", err)
		}
		boom := errors.New("boom")
		err = db.InTx(ctx, func(tx *store.Tx) error {
			if err := insert(tx, "org_b"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM organizations WHERE id = 'org_b'`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("rolled back row present: n=%d err=%v", n, err)
		}
	})
}

func TestAuditHistoryIsAppendOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		err := db.InTx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO audit_events (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details)
				VALUES ('aud_1', 'org_1', 1, 'agent', 'agt_1', 'tok_1', 'vault.read', 'credential', 'crd_1', '{}')`)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{`UPDATE audit_events SET action = 'x'`, `DELETE FROM audit_events`} {
			err := db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.ExecContext(ctx, q); return err })
			if err == nil {
				t.Errorf("%s succeeded on the append-only audit history", q)
			}
		}
	})
}

func TestNotifyAfterCommitOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		var got []string
		woke := make(chan struct{}, 10)
		unsub := db.Subscribe("inbox", func(p string) {
			if p == store.ResetPayload {
				return
			}
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
			woke <- struct{}{}
		})
		defer unsub()
		time.Sleep(200 * time.Millisecond) // PostgreSQL: let the listener connect
		_ = db.InTx(ctx, func(tx *store.Tx) error {
			_ = tx.Notify(ctx, "inbox", "rolled-back")
			return errors.New("abort")
		})
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.Notify(ctx, "inbox", "committed") }); err != nil {
			t.Fatal(err)
		}
		select {
		case <-woke:
		case <-time.After(5 * time.Second):
			t.Fatal("no notification after commit")
		}
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 || got[0] != "committed" {
			t.Fatalf("notifications = %v, want [committed]", got)
		}
	})
}

func TestEventSequenceIncreases(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var seqs []int64
		for i := 0; i < 3; i++ {
			err := db.InTx(ctx, func(tx *store.Tx) error {
				var seq int64
				err := tx.QueryRowContext(ctx, `INSERT INTO events (id, org_id, inbox_id, type, occurred_at, data) VALUES ($1, 'org_1', '', 'x', 1, '{}') RETURNING seq`,
					"evt_"+string(rune('a'+i))).Scan(&seq)
				seqs = append(seqs, seq)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if !(seqs[0] < seqs[1] && seqs[1] < seqs[2]) {
			t.Fatalf("sequence not increasing: %v", seqs)
		}
	})
}

func TestSavepointUndoesOnlyItsUnit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		insert := func(tx *store.Tx, id string) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, 'x', 'paid', 'x.test', 1)`, id)
			return err
		}
		var ran []string
		boom := errors.New("boom")
		var unitErrs []error
		err := db.InTx(ctx, func(tx *store.Tx) error {
			for _, unit := range []struct {
				id   string
				fail error
			}{{"org_sp1", nil}, {"org_sp1", nil}, {"org_sp2", boom}, {"org_sp3", nil}} {
				unitErrs = append(unitErrs, tx.Savepoint(ctx, func() error {
					if err := insert(tx, unit.id); err != nil {
						return err
					}
					tx.AfterCommit(func() { ran = append(ran, unit.id) })
					return unit.fail
				}))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if unitErrs[0] != nil || !store.IsUniqueViolation(unitErrs[1]) || !errors.Is(unitErrs[2], boom) || unitErrs[3] != nil {
			t.Fatalf("unit errors = %v", unitErrs)
		}
		if len(ran) != 2 || ran[0] != "org_sp1" || ran[1] != "org_sp3" {
			t.Fatalf("after-commit functions ran for %v, want [org_sp1 org_sp3]", ran)
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM organizations WHERE id IN ('org_sp1', 'org_sp2', 'org_sp3')`).Scan(&n); err != nil || n != 2 {
			t.Fatalf("rows = %d (err %v), want 2", n, err)
		}
		ran = nil
		_ = db.InTx(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() { ran = append(ran, "rolled back") })
			return boom
		})
		if len(ran) != 0 {
			t.Fatalf("after-commit ran on rollback: %v", ran)
		}
	})
}

// Writes run prepared from the third transaction on (SQLite): results,
// errors and rollbacks behave as unprepared.
func TestPreparedWritesAcrossTransactions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const insert = `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, 'x', 'paid', 'x.test', 1)`
		for _, id := range []string{"org_p1", "org_p2", "org_p3"} {
			err := db.InTx(ctx, func(tx *store.Tx) error {
				res, err := tx.ExecContext(ctx, insert, id)
				if err != nil {
					return err
				}
				if n, _ := res.RowsAffected(); n != 1 {
					t.Errorf("%s: %d rows affected", id, n)
				}
				var got string
				return tx.QueryRowContext(ctx, `SELECT id FROM organizations WHERE id = $1`, id).Scan(&got)
			})
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
		}
		for range 2 {
			err := db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.ExecContext(ctx, insert, "org_p1"); return err })
			if !store.IsUniqueViolation(err) {
				t.Errorf("duplicate insert: %v", err)
			}
			err = db.InTx(ctx, func(tx *store.Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT INTO no_such_table VALUES ($1)`, 1)
				return err
			})
			if err == nil {
				t.Error("insert into a missing table succeeded")
			}
		}
		_ = db.InTx(ctx, func(tx *store.Tx) error {
			_, _ = tx.ExecContext(ctx, insert, "org_p4")
			return errors.New("abort")
		})
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM organizations WHERE id LIKE 'org_p%'`).Scan(&n); err != nil || n != 3 {
			t.Errorf("%d rows (err %v), want 3", n, err)
		}
	})
}

// A write text run only once (literals in the text) is not prepared, so
// one-off texts cannot fill the bounded cache; a text run twice is.
func TestOneOffWritesNotPrepared(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if db.Dialect() != store.SQLite {
			t.Skip("pgx caches its own statements")
		}
		ctx := context.Background()
		exec := func(q string) {
			t.Helper()
			if err := db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err != nil {
				t.Fatal(err)
			}
		}
		before := db.PreparedWrites()
		for i := range 50 {
			exec(fmt.Sprintf(`INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ('org_once%d', 'x', 'paid', 'x.test', 1)`, i))
		}
		if got := db.PreparedWrites() - before; got != 0 {
			t.Fatalf("%d one-off texts prepared, want 0", got)
		}
		const again = `UPDATE organizations SET name = 'y' WHERE id = 'org_once1'`
		exec(again)
		exec(again)
		if got := db.PreparedWrites() - before; got != 1 {
			t.Fatalf("%d texts prepared after one ran twice, want 1", got)
		}
	})
}

// TestWritesAreSyncedBeforeTheyReturn: on SQLite the writer commits without
// syncing under the write lock, so InTx and ExecContext must each wait for
// a sync of the log before they return.
func TestWritesAreSyncedBeforeTheyReturn(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	before := db.LogSyncs()
	if err := db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ('org_s1', 'x', 'paid', 'x.test', 1)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if db.LogSyncs() == before {
		t.Fatal("InTx returned before the log was synced")
	}
	before = db.LogSyncs()
	if _, err := db.ExecContext(ctx, `UPDATE organizations SET name = 'y' WHERE id = 'org_s1'`); err != nil {
		t.Fatal(err)
	}
	if db.LogSyncs() == before {
		t.Fatal("ExecContext returned before the log was synced")
	}
}

// TestInTxSyncWithinSyncsInTheBackground: the commit is visible at once and
// synced within the bound, without the caller waiting; Close syncs what is
// still waiting.
func TestInTxSyncWithinSyncsInTheBackground(t *testing.T) {
	cfg := storetest.Config(t, store.SQLite)
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	insert := func(id string, d time.Duration) {
		t.Helper()
		if err := db.InTxSyncWithin(ctx, d, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, 'x', 'paid', 'x.test', 1)`, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	before := db.LogSyncs()
	insert("org_w1", 50*time.Millisecond)
	if got := db.LogSyncs(); got != before {
		t.Fatalf("InTxSyncWithin waited for %d syncs", got-before)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM organizations WHERE id = 'org_w1'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("commit not visible: %d, %v", n, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for db.LogSyncs() == before {
		if time.Now().After(deadline) {
			t.Fatal("no background sync")
		}
		time.Sleep(5 * time.Millisecond)
	}

	before = db.LogSyncs()
	insert("org_w2", time.Hour)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db.LogSyncs() == before {
		t.Fatal("Close left a commit unsynced")
	}
	db, err = store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM organizations WHERE id IN ('org_w1', 'org_w2')`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("after reopening: %d rows, %v", n, err)
	}
}
