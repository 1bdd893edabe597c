// Package bench measures inbound mail and prints figures (it asserts
// nothing; speed goals are read off the output):
//
//   - RunIngest: 16 concurrent SMTP connections sending 10 KB messages
//     through the full pipeline (spool, parse, sender authentication,
//     screening, threading, storage, event) beside a go-smtp
//     accept-and-discard sink measured in the same run, then once more
//     for a sender on an allow rule (everything but content screening);
//   - RunArrivalToEvent: from the 250 reply to the event reaching a waiting
//     long-poll, at a steady rate;
//   - RunLongPolls: n concurrent event long-polls on one node, all woken by
//     one message.
//
// Everything runs in process on loopback with SQLite in a temporary data
// dir (or PostgreSQL when databaseURL is given), the way `agentsvc server
// --dev` runs.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/smtp"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/email/inbound"
	"github.com/agentsvc/agentsvc/internal/email/screen"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

// Connections is the number of concurrent SMTP clients of RunIngest.
const Connections = 16

// MessageSize is the size of the benchmark messages.
const MessageSize = 10 << 10

// message builds a realistic 10 KB message: headers, a text part with
// prose, and an HTML alternative.
func message(to string, n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: \"Load Sender\" <load@sender.example>\r\nTo: %s\r\nSubject: Order %d shipped\r\nMessage-ID: <%d.%d@sender.example>\r\n", to, n, n, time.Now().UnixNano())
	b.WriteString("Date: Mon, 02 Jan 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=bb\r\n\r\n--bb\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	line := "Your order has shipped and will arrive within three business days. Track it in your account.\r\n"
	for b.Len() < MessageSize/2 {
		b.WriteString(line)
	}
	b.WriteString("--bb\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>")
	for b.Len() < MessageSize-40 {
		b.WriteString("<p>Your order has <b>shipped</b>. <a href=\"https://shop.example/track\">Track it</a>.</p>\r\n")
	}
	b.WriteString("</body></html>\r\n--bb--\r\n")
	return b.Bytes()
}

// env is a server started for a benchmark.
type env struct {
	app    *app.App
	creds  app.DevCredentials
	cancel context.CancelFunc
	done   chan error
	dir    string
}

func start(databaseURL string) (*env, error) {
	dir, err := os.MkdirTemp("", "agentsvc-bench-*")
	if err != nil {
		return nil, err
	}
	cfg := app.Config{Dev: true, DataDir: dir, HTTPAddr: "127.0.0.1:0", AdminAddr: "", SMTPAddr: "127.0.0.1:0", DevPlan: "paid",
		LogLevel: "error", RateLimit: 0, MaxBodyBytes: 1 << 20, ShutdownTimeout: 10 * time.Second, DNSServer: "127.0.0.1:9",
		SMTPMaxMessageBytes: 25 << 20, DatabaseURL: databaseURL}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg, log, "bench")
	if err != nil {
		cancel()
		os.RemoveAll(dir)
		return nil, err
	}
	e := &env{app: a, creds: *a.DevCredentials, cancel: cancel, done: make(chan error, 1), dir: dir}
	go func() { e.done <- a.Run(ctx) }()
	return e, nil
}

func (e *env) stop() {
	e.cancel()
	<-e.done
	os.RemoveAll(e.dir)
}

func (e *env) call(method, path, token string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.app.BaseURL()+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

type agent struct{ id, inbox, address, token string }

// newAgent makes an agent and its inbox, and a token with capabilities.
func (e *env) newAgent(name string, capabilities ...string) (agent, error) {
	var c struct {
		Agent struct{ ID string }
		Inbox struct{ ID, Address string }
	}
	if err := e.call("POST", "/api/v1/inboxes", e.creds.OrgKey, map[string]any{"username": name}, &c); err != nil {
		return agent{}, err
	}
	var tok struct{ Token string }
	if err := e.call("POST", "/api/v1/agents/"+c.Agent.ID+"/tokens", e.creds.OrgKey,
		map[string]any{"name": "bench", "capabilities": capabilities}, &tok); err != nil {
		return agent{}, err
	}
	return agent{id: c.Agent.ID, inbox: c.Inbox.ID, address: c.Inbox.Address, token: tok.Token}, nil
}

// sendOne sends one message on an open client and returns the time of the
// 250 reply to DATA.
func sendOne(c *smtp.Client, to string, raw []byte) (time.Time, error) {
	if err := c.Mail("load@sender.example"); err != nil {
		return time.Time{}, err
	}
	if err := c.Rcpt(to); err != nil {
		return time.Time{}, err
	}
	w, err := c.Data()
	if err != nil {
		return time.Time{}, err
	}
	if _, err := w.Write(raw); err != nil {
		return time.Time{}, err
	}
	if err := w.Close(); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}

type loadResult struct {
	sent      int
	elapsed   time.Duration
	latencies []time.Duration
	errors    int
}

// load runs Connections clients against addr for d.
func load(addr, to string, d time.Duration) loadResult {
	raw := message(to, 0)
	var mu sync.Mutex
	var res loadResult
	var errs atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for range Connections {
		wg.Go(func() {
			var lat []time.Duration
			defer func() {
				mu.Lock()
				res.latencies = append(res.latencies, lat...)
				mu.Unlock()
			}()
			for time.Now().Before(deadline) {
				c, err := smtp.Dial(addr)
				if err != nil {
					errs.Add(1)
					time.Sleep(10 * time.Millisecond)
					continue
				}
				_ = c.Hello("bench.client")
				for i := 0; i < 90 && time.Now().Before(deadline); i++ {
					t0 := time.Now()
					if _, err := sendOne(c, to, raw); err != nil {
						errs.Add(1)
						break
					}
					lat = append(lat, time.Since(t0))
				}
				_ = c.Quit()
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.sent = len(res.latencies)
	res.errors = int(errs.Load())
	return res
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return s[i]
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perMessage is cpu per message in milliseconds.
func perMessage(cpu time.Duration, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(cpu) / float64(time.Millisecond) / float64(n)
}

type discard struct{}

func (discard) CheckRecipient(context.Context, string) error               { return nil }
func (discard) Deliver(context.Context, smtpserver.Envelope, []byte) error { return nil }

// RunIngest measures SMTP ingest through the full pipeline beside a
// go-smtp accept-and-discard sink, each for d with 16 connections. It then
// measures the pipeline once more for an inbox whose sender is on an allow
// rule, so content screening is skipped: that row is what the rest of the
// pipeline costs, to tell how much of the gap to the sink screening is.
// databaseURL selects PostgreSQL; empty is SQLite.
func RunIngest(w io.Writer, d time.Duration) error { return runIngest(w, d, "") }

func runIngest(w io.Writer, d time.Duration, databaseURL string) error {
	// The sink: the same SMTP server, a backend that keeps nothing.
	sinkCfg := smtpserver.Config{Hostname: "sink.localhost", MaxConnsPerIP: 4 * Connections}
	sink, err := smtpserver.New(sinkCfg, discard{})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() { _ = sink.Serve(ln) }()
	sinkCPU := cpuTime()
	sinkRes := load(ln.Addr().String(), "x@sink.localhost", d)
	sinkCPU = cpuTime() - sinkCPU
	_ = sink.Shutdown(context.Background())

	// The full pipeline: the app's database, mailbox and inbound pipeline
	// behind an SMTP server allowing 16 connections from loopback (the
	// app's own listener keeps the production limit of 10 per address).
	e, err := start(databaseURL)
	if err != nil {
		return err
	}
	defer e.stop()
	ag, err := e.newAgent("ingest", "email:read")
	if err != nil {
		return err
	}
	// The second inbox allows the benchmark's sender (a sender rule made
	// through the API, as a user would), so its mail is delivered without
	// content screening; everything else runs as for the first.
	allowed, err := e.newAgent("ingest-allowed", "email:read", "email:send")
	if err != nil {
		return err
	}
	if err := e.call("POST", "/api/v1/inboxes/"+allowed.inbox+"/sender-rules", allowed.token,
		map[string]any{"kind": "allow", "pattern": "@sender.example"}, nil); err != nil {
		return err
	}
	pipe := inbound.New(e.app.DB, e.app.Mailbox, inbound.Config{Detector: screen.NewDetector(),
		// Sender authentication runs, against a resolver that answers at
		// once with an error: DNS latency is the network's, not ours. As in
		// the server, the lookups go through the inbound DNS cache.
		Checker: &senderauth.Checker{Resolver: senderauth.NewCachingResolver(senderauth.NewResolver("127.0.0.1:9")), AuthServID: "bench.localhost"}}, nil)
	srv, err := smtpserver.New(smtpserver.Config{Hostname: "bench.localhost", MaxConnsPerIP: 4 * Connections}, pipe)
	if err != nil {
		return err
	}
	pln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	var pw sync.WaitGroup
	pw.Go(func() { pipe.Run(ctx) })
	go func() { _ = srv.Serve(pln) }()
	defer func() {
		_ = srv.Shutdown(context.Background())
		cancel()
		pw.Wait()
	}()
	// AGENTSVC_BENCH_PIPELINE_CPUPROFILE profiles the full pipeline phase
	// only (the sink and the allowed phase are left out).
	full, err := e.measurePipeline(pln.Addr().String(), ag, d, os.Getenv("AGENTSVC_BENCH_PIPELINE_CPUPROFILE"))
	if err != nil {
		return err
	}
	unscreened, err := e.measurePipeline(pln.Addr().String(), allowed, d, "")
	if err != nil {
		return err
	}

	sinkRate := float64(sinkRes.sent) / sinkRes.elapsed.Seconds()
	sinkPer := perMessage(sinkCPU, sinkRes.sent)
	fmt.Fprintf(w, "SMTP ingest, %d connections, %d KB messages, %s each, %s\n", Connections, MessageSize>>10, d, e.app.DB.Dialect())
	fmt.Fprintf(w, "  %-38s %9s %9s %9s %7s %12s\n", "", "msg/s", "p50", "p99", "errors", "CPU ms/msg")
	fmt.Fprintf(w, "  %-38s %9.0f %9s %9s %7d %12.3f\n", "go-smtp accept-and-discard sink", sinkRate,
		percentile(sinkRes.latencies, .5).Round(time.Microsecond), percentile(sinkRes.latencies, .99).Round(time.Microsecond), sinkRes.errors, sinkPer)
	for _, r := range []struct {
		accept, stored string
		m              pipelineRun
	}{
		{"agentsvc: 250 (durable spool)", "agentsvc: stored (full pipeline)", full},
		{"sender allowed: 250", "sender allowed: stored (no screening)", unscreened},
	} {
		fmt.Fprintf(w, "  %-38s %9.0f %9s %9s %7d\n", r.accept, r.m.accepted(),
			percentile(r.m.res.latencies, .5).Round(time.Microsecond), percentile(r.m.res.latencies, .99).Round(time.Microsecond), r.m.res.errors)
		fmt.Fprintf(w, "  %-38s %9.0f %9s %9s %7s %12.3f\n", r.stored, r.m.rate(), "", "", "", perMessage(r.m.cpu, r.m.stored))
	}
	fmt.Fprintf(w, "  ratio full pipeline / sink: %.2fx (goal >= 0.3x); %d sent, %d stored in %s\n",
		full.rate()/sinkRate, full.res.sent, full.stored, full.processed.Round(time.Millisecond))
	fmt.Fprintf(w, "  ratio sender allowed (no content screening) / sink: %.2fx; %d sent, %d stored in %s\n",
		unscreened.rate()/sinkRate, unscreened.res.sent, unscreened.stored, unscreened.processed.Round(time.Millisecond))
	// CPU time per message counts the client (in this process) too; on a
	// shared machine it moves less with other load than msg/s does.
	fmt.Fprintf(w, "  CPU per message, sink / full pipeline: %.2fx; sink / sender allowed: %.2fx (on %d CPUs, the ratios the CPU cost alone allows)\n",
		sinkPer/perMessage(full.cpu, full.stored), sinkPer/perMessage(unscreened.cpu, unscreened.stored), runtime.NumCPU())
	return nil
}

// pipelineRun is one measurement of the pipeline: the load's 250 replies,
// then how many messages were stored and when the last one was.
type pipelineRun struct {
	res       loadResult
	stored    int
	processed time.Duration // from the start of the load to the last message stored
	cpu       time.Duration // process CPU time over processed
}

func (r pipelineRun) accepted() float64 { return float64(r.res.sent) / r.res.elapsed.Seconds() }
func (r pipelineRun) rate() float64     { return float64(r.stored) / r.processed.Seconds() }

// measurePipeline sends mail to ag for d through the SMTP server at addr
// and waits until the pipeline has stored everything that got 250.
// profile, when not empty, is a file for a CPU profile of the load.
func (e *env) measurePipeline(addr string, ag agent, d time.Duration, profile string) (pipelineRun, error) {
	var r pipelineRun
	start := time.Now()
	stopProfile := startProfile(profile)
	cpu := cpuTime()
	r.res = load(addr, ag.address, d)
	stopProfile()
	for {
		if err := e.app.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM messages WHERE inbox_id = $1`, ag.inbox).Scan(&r.stored); err != nil {
			return r, err
		}
		if r.stored >= r.res.sent || time.Since(start) > d+5*time.Minute {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.processed = time.Since(start)
	r.cpu = cpuTime() - cpu
	return r, nil
}

type eventsPage struct {
	Data []struct {
		Type string
		Data struct {
			Subject string
		}
	}
	NextCursor string `json:"next_cursor"`
}

// RunArrivalToEvent sends rate messages per second for d and measures, for
// each, the time from its 250 reply to its message.received event reaching
// a client waiting in GET /events?wait=25.
func RunArrivalToEvent(w io.Writer, rate int, d time.Duration) error {
	e, err := start("")
	if err != nil {
		return err
	}
	defer e.stop()
	ag, err := e.newAgent("arrival", "email:read")
	if err != nil {
		return err
	}
	var mu sync.Mutex
	acked := map[string]time.Time{}
	early := map[string]time.Time{}
	var lat []time.Duration
	var first eventsPage
	if err := e.call("GET", "/api/v1/inboxes/"+ag.inbox+"/events", ag.token, nil, &first); err != nil {
		return err
	}
	total := int(float64(rate) * d.Seconds())
	seen := 0
	pollDone := make(chan error, 1)
	go func() {
		cursor := first.NextCursor
		for seen < total {
			var p eventsPage
			if err := e.call("GET", "/api/v1/inboxes/"+ag.inbox+"/events?wait=25&cursor="+cursor, ag.token, nil, &p); err != nil {
				pollDone <- err
				return
			}
			now := time.Now()
			mu.Lock()
			for _, ev := range p.Data {
				if ev.Type != "message.received" {
					continue
				}
				if t, ok := acked[ev.Data.Subject]; ok {
					lat = append(lat, now.Sub(t))
				} else {
					// The event beat the sender's bookkeeping of its 250.
					early[ev.Data.Subject] = now
				}
				seen++
			}
			mu.Unlock()
			cursor = p.NextCursor
			if len(p.Data) == 0 && seen < total && time.Since(now) > 0 {
				mu.Lock()
				all := len(acked) >= total
				mu.Unlock()
				if all {
					break
				}
			}
		}
		pollDone <- nil
	}()
	time.Sleep(100 * time.Millisecond)
	// Senders: four connections share the rate, each message at its slot.
	const conns = 4
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	var wg sync.WaitGroup
	var sendErrs atomic.Int64
	for c := range conns {
		wg.Go(func() {
			var cl *smtp.Client
			defer func() {
				if cl != nil {
					cl.Close()
				}
			}()
			for i, sentOn := c, 0; i < total; i, sentOn = i+conns, sentOn+1 {
				// A connection may carry 100 messages; reconnect before.
				if sentOn%90 == 0 {
					if cl != nil {
						_ = cl.Quit()
					}
					var err error
					if cl, err = smtp.Dial(e.app.SMTPAddr()); err != nil {
						sendErrs.Add(1)
						return
					}
				}
				time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
				raw := []byte(strings.Replace(string(message(ag.address, i)), "Subject: Order", fmt.Sprintf("Subject: arrival-%d Order", i), 1))
				subject := fmt.Sprintf("arrival-%d Order %d shipped", i, i)
				at, err := sendOne(cl, ag.address, raw)
				if err != nil {
					sendErrs.Add(1)
					return
				}
				mu.Lock()
				acked[subject] = at
				if t, ok := early[subject]; ok {
					lat = append(lat, max(t.Sub(at), 0))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	select {
	case err := <-pollDone:
		if err != nil {
			return err
		}
	case <-time.After(30 * time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintf(w, "Arrival to event at %d msg/s for %s (%s): %d sent, %d events seen, %d send errors\n",
		rate, d, e.app.DB.Dialect(), len(acked), len(lat), sendErrs.Load())
	fmt.Fprintf(w, "  250 -> long-poll answer: p50 %s, p99 %s, max %s (goal p99 <= 50ms)\n",
		percentile(lat, .5).Round(time.Microsecond), percentile(lat, .99).Round(time.Microsecond), percentile(lat, 1).Round(time.Microsecond))
	return nil
}

// RunLongPolls opens n concurrent GET /events?wait=25 long-polls on one
// server, sends one message, and reports how long until every poll was
// answered and the server's memory while they all waited. The clients run
// in a separate process (this binary re-executed, see PollClientMain) over
// real loopback TCP, so the memory figures are the server's alone.
func RunLongPolls(w io.Writer, n int) error {
	e, err := start("")
	if err != nil {
		return err
	}
	defer e.stop()
	ag, err := e.newAgent("polls", "email:read")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	before := readServerMemory()
	wait, err := startPollClients(ctx, e.app.BaseURL()+"/api/v1/inboxes/"+ag.inbox+"/events?wait=25", ag.token, n)
	if err != nil {
		return err
	}
	// Wait for every poll to be registered with the hub.
	ready := time.Now()
	for e.app.Mailbox.Waiting() < n && time.Since(ready) < 90*time.Second {
		time.Sleep(20 * time.Millisecond)
	}
	registered := e.app.Mailbox.Waiting()
	regTime := time.Since(ready)
	mem := readServerMemory()
	// AGENTSVC_BENCH_WAKE_CPUPROFILE profiles the server from the message
	// to the last answer only (the registration of the polls is left out).
	stopProfile := startProfile(os.Getenv("AGENTSVC_BENCH_WAKE_CPUPROFILE"))
	cl, err := smtp.Dial(e.app.SMTPAddr())
	if err != nil {
		return err
	}
	at, err := sendOne(cl, ag.address, message(ag.address, 1))
	_ = cl.Quit()
	if err != nil {
		return err
	}
	res, err := wait()
	stopProfile()
	if err != nil {
		return err
	}
	all := res.last.Sub(at)
	fmt.Fprintf(w, "%d concurrent event long-polls on one node (%s), clients in a separate process over loopback TCP: %d registered in %s, %d answered (%d with the event), %d failed\n",
		n, e.app.DB.Dialect(), registered, regTime.Round(time.Millisecond), res.answered, res.withEvent, res.failed)
	fmt.Fprintf(w, "  250 -> last long-poll answered: %s (goal <= 1s); first answered after %s, half after %s\n", all.Round(time.Millisecond),
		res.first.Sub(at).Round(time.Millisecond), res.median.Sub(at).Round(time.Millisecond))
	fmt.Fprintf(w, "  server process while all waited: RSS %d MB, Go runtime from the OS %d MB (heap in use %d MB, goroutine stacks %d MB, %d goroutines); idle before: RSS %d MB, from the OS %d MB (goal <= 500 MB)\n",
		mem.rss, mem.sys, mem.heap, mem.stacks, mem.goroutines, before.rss, before.sys)
	return nil
}

// startProfile writes a CPU profile to path until the returned function is
// called; with an empty path it does nothing.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
