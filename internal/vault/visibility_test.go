package vault

import (
	"context"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// TestVisibilitySweepDropsExpiredEntries: an entry (which may hold an opened
// value) does not stay in memory much beyond its TTL, and a change clears
// everything at once.
func TestVisibilitySweepDropsExpiredEntries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ('org_v', 'V', 'free', 'v.test', 0)`); err != nil {
			t.Fatal(err)
		}
		ids := []string{"crd_00000000000000000000000001", "crd_00000000000000000000000002"}
		err := db.InTx(ctx, func(tx *store.Tx) error {
			for _, id := range ids {
				c := Credential{ID: id, orgID: "org_v", Name: id, Kind: KindLogin, AllowedOrigins: []string{}, valueSealed: []byte{1}, CreatedBy: "key_v"}
				if err := insertCredential(ctx, tx, c); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		clock := time.Unix(1_700_000_000, 0)
		v := newVisibility(db)
		v.now = func() time.Time { return clock }
		p := auth.NewPrincipal(auth.KindOrgKey, "org_v", "", "key_v", "k", nil)
		count := func() int {
			n := 0
			v.entries.Range(func(any, any) bool { n++; return true })
			return n
		}
		first, err := v.visible(ctx, p, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := v.visible(ctx, p, ids[0]); again != first {
			t.Fatal("second lookup within the TTL was not served from the cache")
		}
		clock = clock.Add(visibilityTTL + time.Second)
		if _, err := v.visible(ctx, p, ids[1]); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 1 {
			t.Fatalf("%d entries after the sweep, want only the fresh one", n)
		}
		if _, err := v.visible(ctx, p, "crd_00000000000000000000000003"); err == nil {
			t.Fatal("an unknown credential was found")
		}
		if n := count(); n != 1 {
			t.Fatalf("%d entries: a miss was cached", n)
		}
		v.clearAll()
		if n := count(); n != 0 {
			t.Fatalf("%d entries after clearAll", n)
		}
	})
}
