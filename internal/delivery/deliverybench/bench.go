// Package deliverybench measures sending: API request → DKIM-signed,
// queued, delivered through the relay path → accepted by a local SMTP sink,
// at 16 concurrent senders, beside the raw go-smtp client → sink rate
// measured in the same run.
package deliverybench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

const senders = 16

// sink accepts everything and notes when each benchmark message arrived,
// by its subject. Only subjects of the send phase count (the raw phase sends
// to the same sink), and a second arrival of a subject is a duplicate.
type sink struct {
	mu         sync.Mutex
	arrived    map[string]time.Time
	duplicates int
	last       time.Time
}

func (s *sink) CheckRecipient(context.Context, string) error { return nil }

func (s *sink) Deliver(_ context.Context, _ smtpserver.Envelope, raw []byte) error {
	now := time.Now()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	subject := m.Header.Get("Subject")
	if !strings.HasPrefix(subject, subjectPrefix) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.arrived[subject]; dup {
		s.duplicates++
		return nil
	}
	s.arrived[subject] = now
	s.last = now
	return nil
}

func (s *sink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.arrived)
}

const subjectPrefix = "bench "

func startSink() (*sink, string, func(), error) {
	s := &sink{arrived: map[string]time.Time{}}
	srv, err := smtpserver.New(smtpserver.Config{Hostname: "sink.bench", MaxConnsPerIP: 500, MaxConns: 1000, MaxMessagesPerConn: 1 << 30}, s)
	if err != nil {
		return nil, "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	go func() { _ = srv.Serve(ln) }()
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
	return s, ln.Addr().String(), stop, nil
}

// Run prints the figures after about d of sending (and d/2 of the raw rate).
func Run(w io.Writer, d time.Duration) error {
	sk, sinkAddr, stopSink, err := startSink()
	if err != nil {
		return err
	}
	defer stopSink()
	raw, err := rawRate(sinkAddr, d/2)
	if err != nil {
		return err
	}

	dir, err := os.MkdirTemp("", "deliverybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := app.Config{Dev: true, DataDir: dir, HTTPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", DevPlan: "paid", LogLevel: "error",
		LogFormat: "text", MaxBodyBytes: 1 << 20, ShutdownTimeout: 5 * time.Second, DNSServer: "127.0.0.1:9",
		SMTPMaxMessageBytes: 25 << 20, SMTPRelay: sinkAddr, SMTPRetryFor: time.Hour, SMTPRetryBackoff: time.Second,
		SMTPDeliveryPort: 25, RateBurst: 100}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg, log, "bench")
	if err != nil {
		cancel()
		return err
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: senders * 2}, Timeout: 30 * time.Second}
	base := a.BaseURL()
	call := func(method, path, token string, body any) (map[string]any, int, error) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return nil, 0, err
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out, resp.StatusCode, nil
	}
	key := a.DevCredentials.OrgKey
	created, st, err := call("POST", "/api/v1/inboxes", key, map[string]any{"username": "bench"})
	if err != nil || st != 201 {
		return fmt.Errorf("create inbox: %d %v", st, err)
	}
	inbox := created["inbox"].(map[string]any)["id"].(string)
	agent := created["agent"].(map[string]any)["id"].(string)
	tok, st, err := call("POST", "/api/v1/agents/"+agent+"/tokens", key, map[string]any{"name": "bench", "capabilities": []string{"email:send"}})
	if err != nil || st != 201 {
		return fmt.Errorf("token: %d %v", st, err)
	}
	token := tok["token"].(string)

	var (
		mu       sync.Mutex
		started  = map[string]time.Time{}
		answered []time.Duration
		sent     atomic.Int64
		failed   atomic.Int64
		wg       sync.WaitGroup
	)
	t0 := time.Now()
	deadline := t0.Add(d)
	for i := range senders {
		wg.Go(func() {
			for n := 0; time.Now().Before(deadline); n++ {
				subject := fmt.Sprintf("%s%d-%d", subjectPrefix, i, n)
				begin := time.Now()
				mu.Lock()
				started[subject] = begin // before the request: the message may arrive before the answer
				mu.Unlock()
				_, st, err := call("POST", "/api/v1/inboxes/"+inbox+"/messages", token, map[string]any{
					"to": []string{"someone@example.test"}, "subject": subject, "text": "Hello from the benchmark.\n"})
				if err != nil || st != 202 {
					failed.Add(1)
					mu.Lock()
					delete(started, subject)
					mu.Unlock()
					continue
				}
				sent.Add(1)
				mu.Lock()
				answered = append(answered, time.Since(begin))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	sendEnd := time.Now()
	// Let the queue drain: every accepted send must arrive (bounded wait).
	drain := time.Now().Add(60 * time.Second)
	for sk.count() < int(sent.Load()) && time.Now().Before(drain) {
		time.Sleep(5 * time.Millisecond)
	}
	var lat, api []time.Duration
	unexpected := 0
	sk.mu.Lock()
	for subj, at := range sk.arrived {
		if b, ok := started[subj]; ok {
			lat = append(lat, at.Sub(b))
		} else {
			unexpected++ // arrived without a 202 (a send that timed out on the client)
		}
	}
	last, dups := sk.last, sk.duplicates
	sk.mu.Unlock()
	mu.Lock()
	for _, dt := range answered {
		api = append(api, dt)
	}
	mu.Unlock()
	elapsed := last.Sub(t0)
	if last.IsZero() {
		elapsed = time.Since(t0)
	}
	fmt.Fprintf(w, "send API → sink, %d senders, DKIM RSA-2048, %s, %s of sending:\n", senders, a.DB.Dialect(), d)
	fmt.Fprintf(w, "  accepted %d (failed %d) in %s: %.0f sends/s; delivered %d (missing %d, duplicates %d, unexpected %d) by %s: %.0f messages/s\n",
		sent.Load(), failed.Load(), sendEnd.Sub(t0).Round(time.Millisecond), float64(sent.Load())/sendEnd.Sub(t0).Seconds(),
		len(lat), int(sent.Load())-len(lat), dups, unexpected, elapsed.Round(time.Millisecond), float64(len(lat))/elapsed.Seconds())
	fmt.Fprintf(w, "  end-to-end latency (request → sink) p50 %s, p99 %s; API answer p50 %s, p99 %s\n",
		pct(lat, 0.50), pct(lat, 0.99), pct(api, 0.50), pct(api, 0.99))
	fmt.Fprintf(w, "raw go-smtp client → sink, %d connections: %.0f messages/s\n", senders, raw)
	return nil
}

// rawRate sends over go-smtp directly (one connection per sender, many
// messages each) for d and returns messages per second.
func rawRate(addr string, d time.Duration) (float64, error) {
	var (
		n  atomic.Int64
		wg sync.WaitGroup
	)
	msg := []byte("From: a@example.test\r\nTo: b@example.test\r\nSubject: raw\r\n\r\nHello.\r\n")
	t0 := time.Now()
	deadline := t0.Add(d)
	errs := make(chan error, senders)
	for range senders {
		wg.Go(func() {
			c, err := smtp.Dial(addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			for time.Now().Before(deadline) {
				if err := c.SendMail("a@example.test", []string{"b@example.test"}, bytes.NewReader(msg)); err != nil {
					errs <- err
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	return float64(n.Load()) / time.Since(t0).Seconds(), nil
}

// pct is the p-quantile of ds (sorted in place), rounded for printing.
func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(float64(len(ds))*p))].Round(10 * time.Microsecond)
}
