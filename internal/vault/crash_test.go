package vault_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/vault"
)

// TestReadAuditSurvivesCrash SIGKILLs a real agentsvc process while agents
// read a credential, with read entries allowed to wait a whole second for the
// disk, and checks that every read that returned a value is in the audit
// history the database recovers: an entry is committed before its value is
// returned, so only a crash of the host, not of agentsvc, can lose it.
func TestReadAuditSurvivesCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the agentsvc binary")
	}
	dir := t.TempDir()
	bin := apptest.BuildBinary(t)
	httpAddr := apptest.FreeAddr(t)
	srv := apptest.StartBinary(t, bin, dir, httpAddr, "--smtp-addr", apptest.FreeAddr(t), "--dns-server", "127.0.0.1:9",
		"--rate-limit", "0", "--vault-read-audit-sync", "1s")
	creds := apptest.BinaryCredentials(t, dir)
	base := "http://" + httpAddr
	var inbox struct{ Agent struct{ ID string } }
	apptest.CallJSON(t, "POST", base+"/api/v1/inboxes", creds.OrgKey, map[string]any{"username": "crash"}, 201, &inbox)
	var tok struct{ Token string }
	apptest.CallJSON(t, "POST", base+"/api/v1/agents/"+inbox.Agent.ID+"/tokens", creds.OrgKey,
		map[string]any{"name": "crash", "capabilities": []string{"vault:use", "vault:write"}}, 201, &tok)
	var cred struct{ ID string }
	apptest.CallJSON(t, "POST", base+"/api/v1/vault", tok.Token, map[string]any{"name": "crash", "username": "u", "password": "hunter2"}, 201, &cred)

	var (
		returned atomic.Int64 // values the agents got
		wg       sync.WaitGroup
		stop     atomic.Bool
	)
	for range 8 {
		wg.Go(func() {
			client := &http.Client{Timeout: 5 * time.Second}
			for !stop.Load() {
				req, _ := http.NewRequest("GET", base+"/api/v1/vault/"+cred.ID, nil)
				req.Header.Set("Authorization", "Bearer "+tok.Token)
				resp, err := client.Do(req)
				if err != nil {
					return // the server is gone
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 && bytes.Contains(body, []byte("hunter2")) {
					returned.Add(1)
				}
			}
		})
	}
	deadline := time.Now().Add(20 * time.Second)
	for returned.Load() < 300 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = srv.Wait()
	stop.Store(true)
	wg.Wait()
	if returned.Load() == 0 {
		t.Fatal("no read returned a value before the crash")
	}

	// Opening the database recovers it as a restart would.
	db, err := store.Open(context.Background(), store.Config{Path: filepath.Join(dir, "data", "agentsvc.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var audited int64
	if err := db.QueryRowContext(context.Background(), `SELECT count(*) FROM audit_events WHERE target_id = $1 AND action = $2`,
		cred.ID, vault.ActionRead).Scan(&audited); err != nil {
		t.Fatal(err)
	}
	if audited < returned.Load() {
		t.Fatalf("%d values returned, %d reads in the audit history after the crash", returned.Load(), audited)
	}
	t.Logf("%d values returned, %d reads audited (a read whose caller saw the crash may be audited without its value arriving)", returned.Load(), audited)
}
