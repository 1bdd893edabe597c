package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
)

func TestCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := apptest.BuildBinary(t)
	data := t.TempDir()
	run := func(args ...string) []byte {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("agentsvc %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	if out := run("version"); !strings.HasPrefix(string(out), "agentsvc ") {
		t.Fatalf("version: %s", out)
	}
	run("migrate", "--data-dir", data, "--mail-domain", "cli.test")

	var org struct {
		OrganizationID string   `json:"organization_id"`
		OrgKey         string   `json:"org_key"`
		Capabilities   []string `json:"capabilities"`
		Owner          struct{ Email, Password string }
	}
	out := run("org", "create", "--name", "Acme", "--json", "--data-dir", data, "--mail-domain", "cli.test")
	if err := json.Unmarshal(out, &org); err != nil {
		t.Fatalf("org create --json: %v\n%s", err, out)
	}
	if !strings.HasPrefix(org.OrganizationID, "org_") || !strings.HasPrefix(org.OrgKey, "osk_") || len(org.Capabilities) < 3 ||
		org.Owner.Email != "owner@cli.test" || org.Owner.Password == "" {
		t.Fatalf("org create: %+v", org)
	}

	// Bad configuration: every problem reported, non-zero exit.
	cmd := exec.Command(bin, "server", "--http-addr", "bad", "--log-level", "loud")
	cmd.Env = append(os.Environ(), "AGENTSVC_MAIL_DOMAIN=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "http-addr") || !strings.Contains(stderr.String(), "log-level") {
		t.Fatalf("bad config: %v %s", err, stderr.String())
	}

	// Dev server: answers with the org key it wrote, and exits 0 on SIGTERM.
	devDir := t.TempDir()
	srv := exec.Command(bin, "server", "--dev", "--data-dir", devDir, "--http-addr", "127.0.0.1:0", "--admin-addr", "", "--smtp-addr", "127.0.0.1:0")
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	var creds struct {
		OrgKey  string `json:"org_key"`
		BaseURL string `json:"base_url"`
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		raw, err := os.ReadFile(filepath.Join(devDir, "dev-credentials.json"))
		if err == nil && json.Unmarshal(raw, &creds) == nil && creds.OrgKey != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no dev-credentials.json: %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	req, _ := http.NewRequest("GET", creds.BaseURL+"/api/v1/agents", nil)
	req.Header.Set("Authorization", "Bearer "+creds.OrgKey)
	var resp *http.Response
	for {
		var err error
		if resp, err = http.DefaultClient.Do(req); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dev server not answering: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("dev org key rejected: %d", resp.StatusCode)
	}
	_ = srv.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("server exited with %v after SIGTERM:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop on SIGTERM")
	}
}
