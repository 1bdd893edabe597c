package inbound_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
)

// server is the agentsvc process of the crash test.
type server struct {
	cmd              *exec.Cmd
	httpAddr, smtpAd string
}

// startServer runs the binary and returns once its SMTP listener accepts
// too.
func startServer(t *testing.T, bin, dir, httpAddr, smtpAddr string) *server {
	t.Helper()
	cmd := apptest.StartBinary(t, bin, dir, httpAddr, "--smtp-addr", smtpAddr, "--dns-server", "127.0.0.1:9")
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", smtpAddr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("SMTP listener did not start: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &server{cmd: cmd, httpAddr: httpAddr, smtpAd: smtpAddr}
}

func apiCall(t *testing.T, method, url, token string, body any, out any) {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d", method, url, resp.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCrashDuringIngest kills a real agentsvc process with SIGKILL while
// clients are sending, restarts it on the same data dir, and checks that
// every message that got a 250 is stored.
func TestCrashDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the agentsvc binary")
	}
	dir := t.TempDir()
	bin := apptest.BuildBinary(t)
	httpAddr, smtpAddr := apptest.FreeAddr(t), apptest.FreeAddr(t)
	srv := startServer(t, bin, dir, httpAddr, smtpAddr)
	creds := apptest.BinaryCredentials(t, dir)
	var created struct {
		Agent struct{ ID string }
		Inbox struct{ ID, Address string }
	}
	apiCall(t, "POST", creds.BaseURL+"/api/v1/inboxes", creds.OrgKey, map[string]any{"username": "crash"}, &created)
	var tok struct{ Token string }
	apiCall(t, "POST", creds.BaseURL+"/api/v1/agents/"+created.Agent.ID+"/tokens", creds.OrgKey,
		map[string]any{"name": "t", "capabilities": []string{"email:read"}}, &tok)

	// Four clients send until the kill; each records the subjects that got
	// 250 (the DATA reply, read by Close of the data writer).
	var mu sync.Mutex
	var acked []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				conn, err := smtp.Dial(smtpAddr)
				if err != nil {
					return // the server is gone
				}
				for j := 0; j < 20; j++ {
					subject := fmt.Sprintf("crash-%d-%d-%d", c, i, j)
					if conn.Mail("load@sender.example") != nil || conn.Rcpt(created.Inbox.Address) != nil {
						break
					}
					w, err := conn.Data()
					if err != nil {
						break
					}
					_, _ = w.Write([]byte(mail("load@sender.example", created.Inbox.Address, subject, strings.Repeat("payload ", 100))))
					if w.Close() != nil {
						break
					}
					mu.Lock()
					acked = append(acked, subject)
					mu.Unlock()
				}
				conn.Close()
			}
		})
	}
	// Kill once a good number of messages are in flight and acknowledged.
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 150 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = srv.cmd.Wait()
	close(stop)
	wg.Wait()
	mu.Lock()
	want := append([]string(nil), acked...)
	mu.Unlock()
	if len(want) == 0 {
		t.Fatal("no message was acknowledged before the kill")
	}

	srv = startServer(t, bin, dir, httpAddr, smtpAddr)
	base := "http://" + srv.httpAddr
	missing := map[string]bool{}
	for _, s := range want {
		missing[s] = true
	}
	deadline = time.Now().Add(60 * time.Second)
	for len(missing) > 0 && time.Now().Before(deadline) {
		cursor := ""
		for {
			var page struct {
				Data []struct {
					Subject string
				}
				NextCursor string `json:"next_cursor"`
			}
			apiCall(t, "GET", base+"/api/v1/inboxes/"+created.Inbox.ID+"/messages?limit=100&cursor="+cursor, tok.Token, nil, &page)
			for _, m := range page.Data {
				delete(missing, m.Subject)
			}
			if page.NextCursor == "" {
				break
			}
			cursor = page.NextCursor
		}
		if len(missing) > 0 {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if len(missing) > 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		t.Fatalf("%d of %d acknowledged messages lost after SIGKILL, e.g. %v\n%s", len(missing), len(want), firstKey(missing), log)
	}
	t.Logf("all %d acknowledged messages present after SIGKILL and restart", len(want))
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}
