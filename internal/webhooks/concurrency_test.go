package webhooks_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
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
