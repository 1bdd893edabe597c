package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// The SQLite audit history moves to a clustered table (00003): rows written
// before keep every column, the history stays append-only, and the
// migration can be undone.
func TestAuditClusteredMigrationKeepsRows(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Config{Path: filepath.Join(t.TempDir(), "agentsvc.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := db.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	insert := func(i int) error {
		return db.InTx(ctx, func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO audit_events (id, org_id, at, actor_type, actor_id, credential_id, action, target_type, target_id, details)
				VALUES ($1, 'org_1', $2, 'agent', 'agt_1', 'tok_1', 'vault.read', 'credential', 'vcr_1', '{"n":1}')`, fmt.Sprintf("aud_%03d", i), i)
			return err
		})
	}
	for i := range 20 {
		if err := insert(i); err != nil {
			t.Fatal(err)
		}
	}
	count := func() (n int, last string) {
		t.Helper()
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*), MAX(id || '|' || at || '|' || details) FROM audit_events WHERE org_id = 'org_1' AND target_id = 'vcr_1'`).Scan(&n, &last); err != nil {
			t.Fatal(err)
		}
		return n, last
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if n, last := count(); n != 20 || last != `aud_019|19|{"n":1}` {
		t.Fatalf("after the migration: %d rows, last %q", n, last)
	}
	var withoutRowid int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'audit_events' AND sql LIKE '%WITHOUT ROWID%'`).Scan(&withoutRowid); err != nil || withoutRowid != 1 {
		t.Fatalf("audit_events is not clustered (%d, %v)", withoutRowid, err)
	}
	for _, q := range []string{`UPDATE audit_events SET action = 'x'`, `DELETE FROM audit_events`} {
		if err := db.InTx(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err == nil {
			t.Errorf("%s succeeded on the migrated table", q)
		}
	}
	if err := insert(20); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if n, _ := count(); n != 21 {
		t.Fatalf("after undoing: %d rows, want 21", n)
	}
	if err := db.InTx(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, `DELETE FROM audit_events`); return err }); err == nil {
		t.Error("DELETE succeeded after undoing the migration")
	}
}
