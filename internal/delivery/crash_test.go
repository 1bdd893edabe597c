package delivery_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/delivery/deliverytest"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

// dupWindow is the at-least-once window the test grants: a message the
// sink accepted (250) longer than this before the kill must not be sent
// again. The real window is the time from the 250 to the commit of the
// delivered state (one batched transaction, milliseconds); the margin covers
// a loaded machine.
const dupWindow = time.Second

// startAgentsvc runs the binary in dev mode with direct (MX) delivery to
// the sink and waits until it answers.
func startAgentsvc(t *testing.T, bin, dir, httpAddr, dnsAddr string, sinkPort int) *exec.Cmd {
	t.Helper()
	return apptest.StartBinary(t, bin, dir, httpAddr, "--smtp-addr", "127.0.0.1:0", "--dns-server", dnsAddr, "--dev-plan", "paid",
		"--smtp-direct", "--smtp-delivery-port", strconv.Itoa(sinkPort), "--smtp-retry-backoff", "100ms")
}

func call(method, url, token string, body any, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode < 300 {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, err
		}
	}
	return resp.StatusCode, nil
}

// TestCrashWithQueuedMail kills a real agentsvc with SIGKILL while senders
// are calling the send API and its queue holds mail for a slow receiver
// that also answers some recipients with 452, restarts it on the same data
// directory, and checks that every accepted (202) send reaches the receiver
// and that no message the receiver had accepted (250) before the kill,
// outside the at-least-once window, arrives a second time.
func TestCrashWithQueuedMail(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the agentsvc binary")
	}
	dir := t.TempDir()
	bin := apptest.BuildBinary(t)

	sink := deliverytest.StartSink(t)
	sink.SetDelay(150 * time.Millisecond) // a slow receiver: the queue fills up
	var rcpts atomic.Int64
	sink.Reject(func(string) error { // and a temporarily failing one: every 4th RCPT is 452
		if rcpts.Add(1)%4 == 0 {
			return smtpserver.ErrOverQuota
		}
		return nil
	})
	zone := deliverytest.NewZone()
	zone.MX("crash.test", 10, "mx.crash.test")
	zone.A("mx.crash.test", "127.0.0.1")
	dnsAddr := deliverytest.StartDNS(t, zone)

	httpAddr := apptest.FreeAddr(t)
	srv := startAgentsvc(t, bin, dir, httpAddr, dnsAddr, sink.Port())
	creds := apptest.BinaryCredentials(t, dir)
	var created struct {
		Agent struct{ ID string }
		Inbox struct{ ID string }
	}
	if st, err := call("POST", creds.BaseURL+"/api/v1/inboxes", creds.OrgKey, map[string]any{"username": "crash"}, &created); st != 201 {
		t.Fatalf("create inbox: %d %v", st, err)
	}
	var tok struct{ Token string }
	if st, err := call("POST", creds.BaseURL+"/api/v1/agents/"+created.Agent.ID+"/tokens", creds.OrgKey,
		map[string]any{"name": "t", "capabilities": []string{"email:send", "email:read"}}, &tok); st != 202 && st != 201 {
		t.Fatalf("token: %d %v", st, err)
	}
	sendURL := creds.BaseURL + "/api/v1/inboxes/" + created.Inbox.ID + "/messages"

	// Four senders until the kill; a subject counts once its 202 is read.
	var (
		mu       sync.Mutex
		accepted = map[string]bool{}
		stop     atomic.Bool
		wg       sync.WaitGroup
	)
	for c := range 4 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				subject := fmt.Sprintf("crash-%d-%d", c, i)
				st, err := call("POST", sendURL, tok.Token, map[string]any{"to": []string{"Sink <sink@crash.test>"},
					"subject": subject, "text": "queued across a crash"}, nil)
				if err != nil {
					return // the server is gone
				}
				if st == 202 {
					mu.Lock()
					accepted[subject] = true
					mu.Unlock()
				}
			}
		})
	}
	// Kill once the receiver has taken a good number and the queue holds more.
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := len(accepted)
		mu.Unlock()
		got := sink.Received()
		if len(got) >= 30 && n > len(got)+30 && time.Since(got[0].At) > 2*dupWindow || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	killedAt := time.Now()
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = srv.Wait()
	stop.Store(true)
	wg.Wait()
	before := len(sink.Received())
	mu.Lock()
	want := len(accepted)
	mu.Unlock()
	if before == 0 || want <= before {
		t.Fatalf("the kill came at the wrong time: %d accepted, %d received", want, before)
	}

	startAgentsvc(t, bin, dir, httpAddr, dnsAddr, sink.Port())
	// Every accepted send arrives, and mail accepted by the sink outside the
	// window is not sent again.
	wait := time.Now().Add(60 * time.Second)
	for {
		first := map[string]time.Time{}
		var dups []string
		for _, r := range sink.Received() {
			m, err := mail.ReadMessage(bytes.NewReader(r.Raw))
			if err != nil {
				t.Fatal(err)
			}
			subj := m.Header.Get("Subject")
			if at, seen := first[subj]; seen {
				if killedAt.Sub(at) > dupWindow {
					dups = append(dups, fmt.Sprintf("%s (accepted %s before the kill)", subj, killedAt.Sub(at).Round(time.Millisecond)))
				}
				continue
			}
			first[subj] = r.At
		}
		if len(dups) > 0 {
			t.Fatalf("sent again after the receiver's 250, outside the %s window: %v", dupWindow, dups)
		}
		missing := 0
		for subj := range accepted {
			if _, ok := first[subj]; !ok {
				missing++
			}
		}
		if missing == 0 {
			t.Logf("%d accepted sends, %d at the receiver before the kill; all %d arrived after the restart, %d sent again inside the window",
				want, before, want, len(sink.Received())-len(first))
			return
		}
		if time.Now().After(wait) {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			t.Fatalf("%d of %d accepted sends never arrived\n%s", missing, want, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
