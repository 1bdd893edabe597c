package machines_test

import (
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// TestCredentialInjection: a vault value lands in the machine as a file,
// never in an API response, and the hand-over is in the audit history.
func TestCredentialInjection(t *testing.T) {
	needSandboxes(t)
	env := apptest.Start(t, store.SQLite)
	ag := env.NewAgent("injector", auth.ComputeRead, auth.ComputeRun, auth.ComputeAdmin, auth.VaultWrite, auth.VaultUse)
	c := client{t, env, ag.Token}
	const secret = "sk-live-4f9a1c0b7e2d"
	r := env.Must(201, env.Do("POST", "/api/v1/vault", ag.Token, map[string]any{"name": "../github token", "kind": "api_key", "password": secret}))
	credID := r.JSON()["id"].(string)

	// Without vault:use the agent cannot inject.
	noUse := env.NewAgent("injector2", auth.ComputeRun)
	if r := env.Do("POST", "/api/v1/machines", noUse.Token, map[string]any{"inject_credential_ids": []string{credID}}); r.Status != 404 && r.Status != 403 {
		t.Fatalf("another agent injected a credential not equipped on it: %d %s", r.Status, r.Body)
	}

	resp := env.Must(201, env.Do("POST", "/api/v1/machines", ag.Token, map[string]any{"inject_credential_ids": []string{credID}}))
	if strings.Contains(string(resp.Body), secret) {
		t.Fatalf("create response contains the secret: %s", resp.Body)
	}
	var m machine
	resp.Decode(t, &m)
	defer c.del(m.ID)
	// The name is made safe: "../github token" becomes _github_token and cannot climb out.
	if got := c.sh(m.ID, "cat /run/agentsvc/credentials/_github_token"); got != secret {
		t.Fatalf("injected file = %q", got)
	}
	if out := c.sh(m.ID, "ls -a /run/agentsvc; stat -c %a /run/agentsvc/credentials/_github_token"); !strings.Contains(out, "600") {
		t.Fatalf("credential file mode: %s", out)
	}
	if g := env.Must(200, env.Do("GET", "/api/v1/machines/"+m.ID, ag.Token, nil)); strings.Contains(string(g.Body), secret) {
		t.Fatalf("machine read contains the secret")
	}
	a := env.Must(200, env.Do("GET", "/api/v1/audit-events?action=vault.inject&target_id="+credID, env.Creds.OrgKey, nil))
	if n := len(a.JSON()["data"].([]any)); n != 1 {
		t.Fatalf("vault.inject audit entries = %d: %s", n, a.Body)
	}
}
