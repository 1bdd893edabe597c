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
		rc, g := holdingReceiver(t, env)
		const n = 3 * webhooks.PerEndpointInFlight
		for i := range n {
			env.Must(201, env.Do("POST", "/api/v1/inboxes", env.Creds.OrgKey, map[string]any{"username": fmt.Sprintf("conc%d", i)}))
		}
		eventually(t, "the endpoint's places filled", func() bool { return g.inFlight() >= webhooks.PerEndpointInFlight })
		// The node would start more at once if it could; give it time to.
		time.Sleep(200 * time.Millisecond)
		g.free()
		eventually(t, "every event delivered", func() bool { return len(rc.all()) >= n })
		if peak := g.peakInFlight(); peak != webhooks.PerEndpointInFlight {
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
		rc, g := holdingReceiver(t, env)
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
		eventually(t, "the endpoint's places filled", func() bool { return g.inFlight() >= webhooks.PerEndpointInFlight })
		g.free()
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
		if peak := g.peakInFlight(); peak > webhooks.PerEndpointInFlight {
			t.Fatalf("peak concurrency %d, want at most %d", peak, webhooks.PerEndpointInFlight)
		}
	})
}

// gate holds a receiver's requests open until free is called, counting
// how many are open at once.
type gate struct {
	mu         sync.Mutex
	open, peak int
	release    chan struct{}
	once       sync.Once
}

func (g *gate) free() { g.once.Do(func() { close(g.release) }) }

func (g *gate) inFlight() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open
}

func (g *gate) peakInFlight() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.peak
}

// holdingReceiver is a receiver with an endpoint for inbox.created whose
// requests wait at a gate; each is verified and answered 204 once freed.
func holdingReceiver(t *testing.T, env *apptest.Env) (*receiver, *gate) {
	t.Helper()
	rc := newReceiver(t, nowFunc)
	g := &gate{release: make(chan struct{})}
	t.Cleanup(g.free) // before the receiver closes: it waits for its handlers
	ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": rc.srv.URL, "event_types": []string{"inbox.created"}})
	rc.set(ep.Secret, func(w http.ResponseWriter, r *http.Request) bool {
		g.mu.Lock()
		g.open++
		g.peak = max(g.peak, g.open)
		g.mu.Unlock()
		<-g.release
		g.mu.Lock()
		g.open--
		g.mu.Unlock()
		return false
	})
	return rc, g
}
