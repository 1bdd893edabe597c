// Package webhooksbench measures webhook delivery throughput: events
// appended to the log, fanned out, signed, POSTed to a local receiver that
// verifies every signature with client/webhook, and their outcomes written
// to the database (SQLite, synchronous FULL) — beside the rate a bare Go
// client reaches POSTing to the same receiver, measured in the same run.
// It prints figures; it is not a pass/fail test.
package webhooksbench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/client/webhook"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

// InFlight is how many deliveries (and bare requests) run at once.
const InFlight = 64

// Endpoints is how many endpoints share the receiver: a delivery worker
// keeps at most webhooks.PerEndpointInFlight attempts of one endpoint in
// flight, so 16 endpoints make the 64 in flight.
const Endpoints = InFlight / webhooks.PerEndpointInFlight

// receiver verifies and counts requests, recording event-to-receipt
// latency of webhook deliveries. Each endpoint has its own path and secret.
type receiver struct {
	secrets sync.Map // path -> secret
	count   atomic.Int64
	bad     atomic.Int64
	mu      sync.Mutex
	latency []time.Duration
	measure atomic.Bool
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(400)
		return
	}
	secret, _ := rc.secrets.Load(r.URL.Path)
	sec, _ := secret.(string)
	if err := webhook.Verify(sec, r.Header, raw, time.Now()); err != nil {
		rc.bad.Add(1)
		w.WriteHeader(401)
		return
	}
	var body struct {
		OccurredAt time.Time `json:"occurred_at"`
	}
	_ = json.Unmarshal(raw, &body)
	rc.count.Add(1)
	if rc.measure.Load() && !body.OccurredAt.IsZero() {
		d := time.Since(body.OccurredAt)
		rc.mu.Lock()
		rc.latency = append(rc.latency, d)
		rc.mu.Unlock()
	}
	w.WriteHeader(http.StatusNoContent)
}

// Run measures for about d each: the bare POST rate, then deliveries.
func Run(w io.Writer, d time.Duration) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, err := os.MkdirTemp("", "webhooksbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	log := slog.New(slog.DiscardHandler)

	rc := &receiver{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	bare, err := bareRate(ctx, rc, base+"/bare", d)
	if err != nil {
		return err
	}

	db, err := store.Open(ctx, store.Config{Path: filepath.Join(dir, "bench.db"), Logger: log})
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	keys, err := seal.New(ctx, db, seal.Config{File: filepath.Join(dir, "master.key"), Create: true, Logger: log})
	if err != nil {
		return err
	}
	orgs := org.NewService(db, auth.NewAuthenticator(db, log), log)
	c, err := orgs.CreateOrganization(ctx, org.NewOrganization{Name: "Bench", Plan: org.PlanPaid, MailDomain: "bench.test",
		OwnerEmail: "owner@bench.test", OwnerPassword: "correct horse battery"})
	if err != nil {
		return err
	}
	orgID := c.Organization.ID
	svc := webhooks.New(db, keys, webhooks.Config{Dev: true, Workers: InFlight, Logger: log})
	p := auth.NewPrincipal(auth.KindMember, orgID, "", "mem_bench", "bench", nil)
	for i := range Endpoints {
		path := fmt.Sprintf("/hook/%d", i)
		ep, err := svc.Create(ctx, p, webhooks.NewEndpoint{URL: base + path})
		if err != nil {
			return err
		}
		rc.secrets.Store(path, ep.Secret)
	}
	rc.count.Store(0)

	runCtx, stopRun := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { svc.Run(runCtx) })

	// The producer keeps a bounded backlog, appending in batches as a busy
	// mail pipeline would.
	var produced atomic.Int64
	var prodErr error
	wg.Go(func() {
		for runCtx.Err() == nil {
			if produced.Load()*Endpoints-rc.count.Load() > 4*InFlight {
				time.Sleep(200 * time.Microsecond)
				continue
			}
			err := db.InTx(runCtx, func(tx *store.Tx) error {
				for range 8 {
					if _, err := events.Append(runCtx, tx, orgID, "", events.InboxCreated, map[string]any{"bench": true}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				if runCtx.Err() == nil {
					prodErr = err
				}
				return
			}
			produced.Add(8)
		}
	})

	time.Sleep(d / 4) // warm up
	stopProfile, err := startProfile(os.Getenv("WEBHOOKSBENCH_CPUPROFILE"))
	if err != nil {
		stopRun()
		wg.Wait()
		return err
	}
	start, startCount := time.Now(), rc.count.Load()
	rc.measure.Store(true)
	time.Sleep(d)
	rc.measure.Store(false)
	stopProfile()
	delivered := rc.count.Load() - startCount
	elapsed := time.Since(start)
	stopRun()
	wg.Wait()
	if prodErr != nil {
		return prodErr
	}
	if rc.bad.Load() > 0 {
		return fmt.Errorf("%d requests failed verification", rc.bad.Load())
	}
	var succeeded int64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'succeeded'`).Scan(&succeeded); err != nil {
		return err
	}

	rc.mu.Lock()
	lat := slices.Clone(rc.latency)
	rc.mu.Unlock()
	slices.Sort(lat)
	pct := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(q*float64(len(lat))))]
	}
	rate := float64(delivered) / elapsed.Seconds()
	fmt.Fprintf(w, "webhook deliveries (SQLite, %d endpoints x %d = %d in flight, signed, verified, durable): %.0f/s\n",
		Endpoints, webhooks.PerEndpointInFlight, InFlight, rate)
	fmt.Fprintf(w, "event-to-receipt latency: p50 %s, p99 %s (%d samples)\n", pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), len(lat))
	fmt.Fprintf(w, "bare Go client POST rate (same receiver, %d in flight): %.0f/s\n", InFlight, bare)
	fmt.Fprintf(w, "ratio: %.2fx (goal >= 0.25x); deliveries recorded succeeded: %d\n", rate/bare, succeeded)
	return nil
}

// startProfile writes a CPU profile of the measured delivery phase only
// (not the bare run) to path, when path is set.
func startProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// bareRate is the POST rate of a plain Go client (pre-signed body, same
// verification on the receiver) with InFlight requests at once.
func bareRate(ctx context.Context, rc *receiver, url string, d time.Duration) (float64, error) {
	secret := "whsec_bare"
	rc.secrets.Store("/bare", secret)
	body := []byte(`{"id":"evt_bare","type":"inbox.created","occurred_at":"2026-01-01T00:00:00Z","sequence":"1","organization_id":"org_bare","inbox_id":null,"data":{}}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: InFlight}, Timeout: 10 * time.Second}
	var n atomic.Int64
	var firstErr atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range InFlight {
		wg.Go(func() {
			for time.Now().Before(deadline) && ctx.Err() == nil {
				ts := time.Now()
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set(webhook.HeaderTimestamp, fmt.Sprint(ts.Unix()))
				req.Header.Set(webhook.HeaderSignature, webhook.Sign(secret, ts, body))
				resp, err := client.Do(req)
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				n.Add(1)
			}
		})
	}
	start := time.Now()
	wg.Wait()
	if e, ok := firstErr.Load().(error); ok && e != nil {
		return 0, errors.Join(errors.New("bare client"), e)
	}
	return float64(n.Load()) / time.Since(start).Seconds(), nil
}
