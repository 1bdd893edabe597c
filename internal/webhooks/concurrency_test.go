package webhooks_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

// TestPerEndpointConcurrency holds a receiver's requests open while events
// pile up: the endpoint gets PerEndpointInFlight requests at once, never
// more (the node has 64 workers and reserves further deliveries of the
// endpoint behind them), and every event arrives once released.
func TestPerEndpointConcurrency(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, nowFunc)
		var (
			mu         sync.Mutex
			open, peak int
		)
		release := make(chan struct{})
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		t.Cleanup(free) // before the receiver closes: it waits for its handlers
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL, "event_types": []string{"inbox.created"}})
		rc.set(ep.Secret, func(w http.ResponseWriter, r *http.Request) bool {
			mu.Lock()
			open++
			peak = max(peak, open)
			mu.Unlock()
			<-release
			mu.Lock()
			open--
			mu.Unlock()
			return false // verified and answered 204 by the receiver
		})
		const n = 3 * webhooks.PerEndpointInFlight
		for i := range n {
			env.Must(201, env.Do("POST", "/api/v1/inboxes", env.Creds.OrgKey, map[string]any{"username": fmt.Sprintf("conc%d", i)}))
		}
		eventually(t, "the endpoint's places filled", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return open >= webhooks.PerEndpointInFlight
		})
		// The node would start more at once if it could; give it time to.
		time.Sleep(200 * time.Millisecond)
		free()
		eventually(t, "every event delivered", func() bool { return len(rc.all()) >= n })
		mu.Lock()
		defer mu.Unlock()
		if peak != webhooks.PerEndpointInFlight {
			t.Fatalf("peak concurrency %d, want %d", peak, webhooks.PerEndpointInFlight)
		}
	})
}

// TestBurstBeyondReserve appends more events at once than a node may hold
// leased for one endpoint (on SQLite the fan-out leases what fits and
// leaves the rest to claims) while the receiver holds its requests open:
// the endpoint still gets at most PerEndpointInFlight at once, and once
// released every event arrives exactly once (no delivery is sent twice by
// a live node).
func TestBurstBeyondReserve(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		rc := newReceiver(t, nowFunc)
		var (
			mu         sync.Mutex
			open, peak int
		)
		release := make(chan struct{})
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		t.Cleanup(free)
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL, "event_types": []string{"inbox.created"}})
		rc.set(ep.Secret, func(w http.ResponseWriter, r *http.Request) bool {
			mu.Lock()
			open++
			peak = max(peak, open)
			mu.Unlock()
			<-release
			mu.Lock()
			open--
			mu.Unlock()
			return false
		})
		const n = 100 // more than the reserve of one endpoint (32)
		ctx := context.Background()
		err := env.App.DB.InTx(ctx, func(tx *store.Tx) error {
			for i := range n {
				if _, err := events.Append(ctx, tx, env.Creds.OrganizationID, "", events.InboxCreated, map[string]any{"n": i}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "the endpoint's places filled", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return open >= webhooks.PerEndpointInFlight
		})
		free()
		eventually(t, "every event delivered", func() bool { return len(rc.all()) >= n })
		time.Sleep(100 * time.Millisecond) // a duplicate would arrive by now
		seen := map[string]int{}
		for _, r := range rc.all() {
			id, _ := r.Body["id"].(string)
			seen[id]++
		}
		for id, c := range seen {
			if c != 1 {
				t.Errorf("event %s delivered %d times", id, c)
			}
		}
		if len(seen) != n {
			t.Errorf("%d events delivered, want %d", len(seen), n)
		}
		mu.Lock()
		defer mu.Unlock()
		if peak > webhooks.PerEndpointInFlight {
			t.Fatalf("peak concurrency %d, want at most %d", peak, webhooks.PerEndpointInFlight)
		}
	})
}
