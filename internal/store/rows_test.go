package store_test

import (
	"context"
	"testing"

	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func TestStringsAndScanAll(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		got, err := store.Strings(ctx, db, `SELECT id FROM organizations WHERE id = $1`, "org_none")
		if err != nil || got == nil || len(got) != 0 { // an empty list, not nil (JSON [])
			t.Fatalf("no rows: %v, %v; want an empty slice", got, err)
		}
		err = db.InTx(ctx, func(tx *store.Tx) error {
			for _, id := range []string{"org_s2", "org_s1"} {
				if _, err := tx.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, 'x', 'paid', 'x.test', 1)`, id); err != nil {
					return err
				}
			}
			// Inside a transaction too, seeing its own writes.
			got, err = store.Strings(ctx, tx, `SELECT id FROM organizations WHERE id LIKE 'org_s%' ORDER BY id`)
			return err
		})
		if err != nil || len(got) != 2 || got[0] != "org_s1" || got[1] != "org_s2" {
			t.Fatalf("got %v, %v", got, err)
		}
		rows, err := db.QueryContext(ctx, `SELECT id, created_at FROM organizations WHERE id LIKE 'org_s%' ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		type org struct {
			id string
			at int64
		}
		orgs, err := store.ScanAll(rows, func(r store.Scanner) (org, error) {
			var o org
			err := r.Scan(&o.id, &o.at)
			return o, err
		})
		if err != nil || len(orgs) != 2 || orgs[1] != (org{"org_s2", 1}) {
			t.Fatalf("ScanAll: %v, %v", orgs, err)
		}
		// A scan error stops the reading and is returned.
		rows, err = db.QueryContext(ctx, `SELECT id FROM organizations WHERE id LIKE 'org_s%'`)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.ScanAll(rows, func(r store.Scanner) (int64, error) {
			var n int64
			err := r.Scan(&n)
			return n, err
		}); err == nil {
			t.Fatal("scanning text into an integer succeeded")
		}
	})
}
