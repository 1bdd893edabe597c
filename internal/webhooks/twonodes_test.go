package webhooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// TestTwoNodes runs two servers on one PostgreSQL database, both
// dispatching and delivering: every event becomes exactly one delivery per
// endpoint (the cursor is claimed with SKIP LOCKED, the (endpoint, event)
// index is unique) and reaches the receiver at least once.
func TestTwoNodes(t *testing.T) {
	if !storetestHasPostgres() {
		t.Skip("needs AGENTSVC_TEST_POSTGRES")
	}
	a := apptest.Start(t, store.Postgres)
	cfg := apptest.Config(t, store.Postgres)
	cfg.DatabaseURL = a.Config.DatabaseURL
	// The second node shares the master key and the dev organization.
	cfg.MasterKeyFile = filepath.Join(a.Config.DataDir, "master.key")
	raw, err := os.ReadFile(app.DevCredentialsFile(a.Config.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(app.DevCredentialsFile(cfg.DataDir), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	b := apptest.StartConfig(t, cfg)

	rc := newReceiver(t, nowFunc)
	ep := createEndpoint(t, a, a.Creds.OrgKey, map[string]any{"url": rc.srv.URL, "event_types": []string{"inbox.created"}})
	rc.set(ep.Secret, nil)
	const n = 30
	for i := range n {
		node := a
		if i%2 == 1 {
			node = b
		}
		node.Must(201, node.Do("POST", "/api/v1/inboxes", node.Creds.OrgKey, map[string]any{"username": fmt.Sprintf("twonode%d", i)}))
	}
	eventually(t, "every event delivered", func() bool {
		seen := map[any]bool{}
		for _, g := range rc.all() {
			seen[g.Body["id"]] = true
		}
		return len(seen) == n
	})
	var rows, events int
	ctx := context.Background()
	if err := a.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE endpoint_id = $1`, ep.ID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if err := a.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE type = 'inbox.created' AND seq > 0 AND org_id = $1`,
		a.Creds.OrganizationID).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if rows != n || events != n {
		t.Fatalf("%d delivery rows for %d events (%d in the log)", rows, n, events)
	}
	t.Logf("%d events, %d requests received (at least once)", n, len(rc.all()))
}

func storetestHasPostgres() bool {
	for _, d := range storetest.Dialects() {
		if d == store.Postgres {
			return true
		}
	}
	return false
}
