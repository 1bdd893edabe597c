package webhooks_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/client/webhook"
	"github.com/agentsvc/agentsvc/internal/apptest"
)

// startBinary runs `agentsvc server --dev` on dir and waits until it answers.
func startBinary(t *testing.T, bin, dir, httpAddr string) *exec.Cmd {
	t.Helper()
	return apptest.StartBinary(t, bin, dir, httpAddr, "--smtp-addr", apptest.FreeAddr(t), "--dns-server", "127.0.0.1:9",
		"--webhook-attempt-timeout", "1s")
}

// call creates something (201) and returns the answer as a map.
func call(t *testing.T, method, url, token string, body any) map[string]any {
	t.Helper()
	var m map[string]any
	apptest.CallJSON(t, method, url, token, body, 201, &m)
	return m
}

// TestCrashWithDeliveriesInFlight SIGKILLs a real agentsvc process while
// its receiver holds deliveries open, restarts it on the same data dir and
// checks every event reaches the receiver at least once.
func TestCrashWithDeliveriesInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the agentsvc binary")
	}
	dir := t.TempDir()
	bin := apptest.BuildBinary(t)
	httpAddr := apptest.FreeAddr(t)
	srv := startBinary(t, bin, dir, httpAddr)
	creds := apptest.BinaryCredentials(t, dir)

	var (
		mu      sync.Mutex
		got     = map[string]int{}
		secret  string
		holding = true
		held    = make(chan struct{}, 100)
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		hold, sec := holding, secret
		mu.Unlock()
		if hold { // keep the delivery in flight until the server dies
			held <- struct{}{}
			<-r.Context().Done()
			return
		}
		if webhook.Verify(sec, r.Header, body, time.Now()) != nil {
			w.WriteHeader(401)
			return
		}
		mu.Lock()
		got[r.Header.Get(webhook.HeaderEventID)]++
		mu.Unlock()
		w.WriteHeader(204)
	}))
	defer rc.Close()
	base := "http://" + httpAddr
	ep := call(t, "POST", base+"/api/v1/webhooks", creds.OrgKey, map[string]any{"url": rc.URL, "event_types": []string{"inbox.created"}})
	mu.Lock()
	secret = ep["secret"].(string)
	mu.Unlock()
	const n = 8
	for i := range n {
		call(t, "POST", base+"/api/v1/inboxes", creds.OrgKey, map[string]any{"username": fmt.Sprintf("crash%d", i)})
	}
	// Wait until deliveries are in flight (at most 4 per endpoint), then kill.
	for range 4 {
		select {
		case <-held:
		case <-time.After(20 * time.Second):
			t.Fatal("no delivery reached the receiver")
		}
	}
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = srv.Wait()
	mu.Lock()
	holding = false
	mu.Unlock()

	startBinary(t, bin, dir, httpAddr)
	// Leases of the killed process expire after attempt timeout + 5 s.
	deadline := time.Now().Add(40 * time.Second)
	for {
		mu.Lock()
		distinct := len(got)
		mu.Unlock()
		if distinct == n {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			t.Fatalf("%d of %d events delivered after the crash: %v\n%s", distinct, n, got, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
