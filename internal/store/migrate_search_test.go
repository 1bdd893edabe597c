package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// Migration 00013 takes the snippets of quarantined messages stored before
// it out of the search index (they were searchable though withheld), keeps
// everything else searchable, and lets a release put the snippet back.
func TestSearchMigrationDropsHeldSnippets(t *testing.T) {
	ctx := context.Background()
	for _, d := range storetest.Dialects() {
		t.Run(d.String(), func(t *testing.T) {
			db, err := store.Open(ctx, storetest.Config(t, d))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.MigrateUpTo(ctx, 12); err != nil {
				t.Fatal(err)
			}
			exec := func(q string, args ...any) {
				t.Helper()
				if err := db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.ExecContext(ctx, q, args...); return err }); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			exec(`INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ('org_1', 'o', 'paid', 'x.test', 0)`)
			exec(`INSERT INTO agents (id, org_id, name, metadata, created_at, updated_at) VALUES ('agt_1', 'org_1', 'a', '{}', 0, 0)`)
			exec(`INSERT INTO inboxes (id, org_id, agent_id, address, display_name, created_at) VALUES ('inb_1', 'org_1', 'agt_1', 'a@x.test', '', 0)`)
			insert := func(id, folder, subject, snippet string, held bool) {
				exec(`INSERT INTO threads (id, org_id, inbox_id, folder, subject, normalized_subject, correspondents, snippet, last_from_name,
					last_from_address, message_count, agent_read, team_read, last_message_at, created_at, updated_at)
					VALUES ($1, 'org_1', 'inb_1', $2, $3, $3, '', '', 'Mallory', 'mallory@held.example', 1, FALSE, FALSE, 0, 0, 0)`, "thr_"+id, folder, subject)
				exec(`INSERT INTO messages (id, org_id, inbox_id, thread_id, direction, header_message_id, in_reply_to, refs, from_name, from_address,
					to_json, cc_json, reply_to_json, subject, snippet, text_body, html_body, verdict, reasons, findings, auth_json, warnings,
					quarantined, size, sha256, blob_path, sent_at, received_at)
					VALUES ($1, 'org_1', 'inb_1', $2, 'inbound', '', '', '[]', 'Mallory', 'mallory@held.example', '[]', '[]', '[]', $3, $4, $4, '',
					'clean', '[]', '[]', '{}', '[]', $5, 1, '', '', 0, 0)`, "msg_"+id, "thr_"+id, subject, snippet, held)
			}
			insert("held", "quarantine", "Parcel notice", "the xylophone password", true)
			insert("open", "inbox", "Weekly digest", "nothing about zebras", false)
			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			search := func(word string) []string {
				t.Helper()
				q := `SELECT DISTINCT thread_id FROM messages_fts WHERE messages_fts MATCH $1 ORDER BY thread_id`
				if d == store.Postgres {
					q = `SELECT DISTINCT thread_id FROM messages WHERE search @@ plainto_tsquery('simple', $1) ORDER BY thread_id`
				}
				ids, err := store.Strings(ctx, db, q, word)
				if err != nil {
					t.Fatal(err)
				}
				return ids
			}
			for word, want := range map[string][]string{"xylophone": nil, "parcel": {"thr_held"}, "mallory": {"thr_held", "thr_open"},
				"zebras": {"thr_open"}, "digest": {"thr_open"}} {
				if got := search(word); !slices.Equal(got, want) {
					t.Errorf("after the migration, %q finds %v, want %v", word, got, want)
				}
			}
			exec(`UPDATE messages SET quarantined = FALSE WHERE id = 'msg_held'`)
			if got := search("xylophone"); !slices.Equal(got, []string{"thr_held"}) {
				t.Errorf("after release, xylophone finds %v", got)
			}
		})
	}
}
