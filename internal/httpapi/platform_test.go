package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

func TestMeAndTokens(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("alice", auth.EmailRead, auth.IdentityShareOwner)
		r := env.Must(200, env.Do("GET", "/api/v1/me", a.Token, nil))
		var me struct {
			OrganizationID string `json:"organization_id"`
			Agent          struct{ ID, Name string }
			Inboxes        []struct{ ID, Address string }
			Token          struct{ Capabilities []string }
		}
		r.Decode(t, &me)
		if me.Agent.ID != a.ID || me.OrganizationID != env.Creds.OrganizationID {
			t.Fatalf("me = %+v", me)
		}
		if len(me.Inboxes) != 1 || me.Inboxes[0].Address != "alice@agentsvc.localhost" {
			t.Fatalf("inboxes = %+v", me.Inboxes)
		}
		if fmt.Sprint(me.Token.Capabilities) != "[email:read identity:share_owner]" {
			t.Fatalf("capabilities = %v", me.Token.Capabilities)
		}

		// Unknown capability: 400 naming it.
		r = env.Must(400, env.Do("POST", "/api/v1/agents/"+a.ID+"/tokens", env.Creds.OrgKey, map[string]any{"name": "x", "capabilities": []string{"email:rule"}}))
		if !strings.Contains(string(r.Body), "email:rule") {
			t.Fatalf("400 does not name the capability: %s", r.Body)
		}

		// The token is listed without its value.
		r = env.Must(200, env.Do("GET", "/api/v1/agents/"+a.ID+"/tokens", env.Creds.OrgKey, nil))
		if strings.Contains(string(r.Body), a.Token) || strings.Contains(string(r.Body), "ast_") {
			t.Fatalf("token list leaks a secret: %s", r.Body)
		}
		tokID := r.JSON()["data"].([]any)[0].(map[string]any)["id"].(string)

		// Revocation acts on the very next request, although the token is cached.
		env.Must(200, env.Do("GET", "/api/v1/me", a.Token, nil))
		env.Must(200, env.Do("DELETE", "/api/v1/agents/"+a.ID+"/tokens/"+tokID, env.Creds.OrgKey, nil))
		r = env.Must(401, env.Do("GET", "/api/v1/me", a.Token, nil))
		if r.ErrorCode() != "unauthorized" || !strings.Contains(string(r.Body), "revoked") {
			t.Fatalf("revoked token: %s", r.Body)
		}

		// Deleting an agent kills its other tokens at once too.
		b := env.NewAgent("bob", auth.EmailRead)
		env.Must(200, env.Do("GET", "/api/v1/me", b.Token, nil))
		env.Must(204, env.Do("DELETE", "/api/v1/agents/"+b.ID, env.Creds.OrgKey, nil))
		env.Must(401, env.Do("GET", "/api/v1/me", b.Token, nil))
		env.Must(404, env.Do("GET", "/api/v1/agents/"+b.ID, env.Creds.OrgKey, nil))

		// The audit history recorded all of it, with the credential used.
		r = env.Must(200, env.Do("GET", "/api/v1/audit-events?target_id="+tokID, env.Creds.OrgKey, nil))
		entries := r.JSON()["data"].([]any)
		if len(entries) != 2 {
			t.Fatalf("audit entries for the token: %s", r.Body)
		}
		first := entries[0].(map[string]any)
		if first["action"] != "token.revoke" || !strings.HasPrefix(first["credential_id"].(string), "key_") {
			t.Fatalf("newest audit entry = %v", first)
		}
	})
}

func TestRevocationAcrossNodes(t *testing.T) {
	if len(apptestDialects()) < 2 {
		t.Skip("needs PostgreSQL (AGENTSVC_TEST_POSTGRES): two server nodes share one database")
	}
	node1 := apptest.Start(t, store.Postgres)
	cfg := node1.Config
	cfg.DataDir = t.TempDir()
	// Node 2: same database, its own dev credentials file pointing at the same org.
	writeCreds(t, cfg.DataDir, node1.Creds)
	node2 := apptest.StartConfig(t, cfg)
	a := node1.NewAgent("nodes", auth.EmailRead)
	node2.Must(200, node2.Do("GET", "/api/v1/me", a.Token, nil)) // cached on node 2
	r := node1.Must(200, node1.Do("GET", "/api/v1/agents/"+a.ID+"/tokens", node1.Creds.OrgKey, nil))
	tokID := r.JSON()["data"].([]any)[0].(map[string]any)["id"].(string)
	node1.Must(200, node1.Do("DELETE", "/api/v1/agents/"+a.ID+"/tokens/"+tokID, node1.Creds.OrgKey, nil))
	// NOTIFY reaches node 2 within milliseconds; allow a short window.
	for i := 0; ; i++ {
		r := node2.Do("GET", "/api/v1/me", a.Token, nil)
		if r.Status == 401 {
			if i > 0 {
				t.Logf("node 2 refused the token after %d retries", i)
			}
			break
		}
		if i == 50 {
			t.Fatalf("node 2 still accepts a revoked token")
		}
		waitMS(20)
	}
}

func TestTokenPlacement(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	a := env.NewAgent("carol", auth.EmailRead)
	cases := []struct {
		name string
		req  func() *http.Request
	}{
		{"query access_token", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me?access_token="+a.Token, nil)
			return r
		}},
		{"query any name", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me?x="+a.Token, nil)
			return r
		}},
		{"cookie", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me", nil)
			r.AddCookie(&http.Cookie{Name: "session", Value: a.Token})
			return r
		}},
		{"basic scheme", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me", nil)
			r.Header.Set("Authorization", "Basic "+a.Token)
			return r
		}},
		{"garbage bytes", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me", nil)
			r.Header.Set("Authorization", "Bearer \xff\xfe garbage \x80")
			return r
		}},
		{"unknown token of the right shape", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me", nil)
			r.Header.Set("Authorization", "Bearer "+auth.NewSecret(auth.AgentTokenPrefix))
			return r
		}},
		{"no token", func() *http.Request {
			r, _ := http.NewRequest("GET", env.BaseURL+"/api/v1/me", nil)
			return r
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := env.Send(c.req())
			if r.Status != 401 || r.ErrorCode() != "unauthorized" || r.JSON()["error"].(map[string]any)["hint"] == nil {
				t.Fatalf("got %d %s, want 401 unauthorized with a hint", r.Status, r.Body)
			}
		})
	}
}

func TestCreateInboxValidation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		key := env.Creds.OrgKey
		for _, u := range []string{"", "a b", "a..b", ".a", "a.", strings.Repeat("x", 65), "postmaster", "ünï", "a@b", `a"b`} {
			r := env.Do("POST", "/api/v1/inboxes", key, map[string]any{"username": u})
			if r.Status != 400 || r.ErrorCode() != "invalid_request" || !strings.Contains(string(r.Body), "username") {
				t.Errorf("username %q: got %d %s", u, r.Status, r.Body)
			}
		}
		env.Must(201, env.Do("POST", "/api/v1/inboxes", key, map[string]any{"username": "Dave.Smith+x", "metadata": map[string]any{"team": "ops", "n": 3}}))
		r := env.Must(409, env.Do("POST", "/api/v1/inboxes", key, map[string]any{"username": "dave.smith+X"}))
		if r.ErrorCode() != "already_exists" {
			t.Fatalf("duplicate: %s", r.Body)
		}
		r = env.Must(400, env.Do("POST", "/api/v1/inboxes", key, map[string]any{"username": "x", "display_name": "a\r\nBcc: evil@example.com"}))
		if !strings.Contains(string(r.Body), "display_name") {
			t.Fatalf("header injection in display name: %s", r.Body)
		}
		r = env.Must(400, env.Do("POST", "/api/v1/inboxes", key, `{"username":"x","unknown":1}`))
		if !strings.Contains(string(r.Body), "unknown") {
			t.Fatalf("unknown field not named: %s", r.Body)
		}
		r = env.Must(400, env.Do("POST", "/api/v1/inboxes", key, `{"username":5}`))
		if !strings.Contains(string(r.Body), "username") {
			t.Fatalf("wrong type not named: %s", r.Body)
		}
	})
}

func TestSandboxPlanAgentQuota(t *testing.T) {
	env := apptest.Start(t, store.SQLite, func(c *app.Config) { c.DevPlan = "sandbox" })
	for i := 0; i < 5; i++ {
		env.Must(201, env.Do("POST", "/api/v1/inboxes", env.Creds.OrgKey, map[string]any{"username": fmt.Sprintf("q%d", i)}))
	}
	r := env.Must(402, env.Do("POST", "/api/v1/inboxes", env.Creds.OrgKey, map[string]any{"username": "q5"}))
	if r.ErrorCode() != "quota_exceeded" || !strings.Contains(string(r.Body), "agents") {
		t.Fatalf("402 must name the quota: %s", r.Body)
	}
}

func TestPagination(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		for i := 0; i < 7; i++ {
			env.NewAgent(fmt.Sprintf("page%d", i))
		}
		var seen []string
		cursor := ""
		for pages := 0; ; pages++ {
			r := env.Must(200, env.Do("GET", "/api/v1/agents?limit=3&cursor="+cursor, env.Creds.OrgKey, nil))
			body := r.JSON()
			for _, it := range body["data"].([]any) {
				seen = append(seen, it.(map[string]any)["id"].(string))
			}
			next, has := body["next_cursor"].(string)
			if !has {
				if len(body["data"].([]any)) > 3 {
					t.Fatalf("page larger than limit")
				}
				break
			}
			cursor = next
			if pages > 5 {
				t.Fatal("too many pages")
			}
		}
		if len(seen) != 7 {
			t.Fatalf("saw %d agents, want 7", len(seen))
		}
		for i := 1; i < len(seen); i++ {
			if seen[i-1] <= seen[i] {
				t.Fatalf("not newest first: %v", seen)
			}
		}
		// Exactly one full page: no next_cursor.
		r := env.Must(200, env.Do("GET", "/api/v1/agents?limit=7", env.Creds.OrgKey, nil))
		if _, has := r.JSON()["next_cursor"]; has {
			t.Fatalf("next_cursor on the last page: %s", r.Body)
		}
		for _, q := range []string{"limit=0", "limit=101", "limit=abc", "cursor=nope", "cursor=" + strings.Repeat("A", 300)} {
			r := env.Do("GET", "/api/v1/agents?"+q, env.Creds.OrgKey, nil)
			if r.Status != 400 || r.ErrorCode() != "invalid_request" {
				t.Errorf("%s: got %d %s", q, r.Status, r.Body)
			}
		}
	})
}

func TestIdempotencyKey(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		send := func(key, body string) apptest.Response {
			req, _ := http.NewRequest("POST", env.BaseURL+"/api/v1/inboxes", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+env.Creds.OrgKey)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", key)
			return env.Send(req)
		}
		first := env.Must(201, send("k1", `{"username":"idem"}`))
		again := env.Must(201, send("k1", `{"username":"idem"}`))
		if string(again.Body) != string(first.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay differs: %s vs %s (%v)", first.Body, again.Body, again.Header)
		}
		if first.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("first response marked as replayed")
		}
		r := env.Must(409, send("k1", `{"username":"other"}`))
		if r.ErrorCode() != "idempotency_conflict" {
			t.Fatalf("different body: %s", r.Body)
		}
		// A failed request keeps nothing: the same key works once fixed.
		env.Must(400, send("k2", `{"username":"bad name"}`))
		env.Must(201, send("k2", `{"username":"goodname"}`))

		// Concurrent retries run once: the others wait and replay.
		var wg sync.WaitGroup
		statuses := make([]int, 4)
		for i := range statuses {
			wg.Go(func() { statuses[i] = send("k3", `{"username":"race"}`).Status })
		}
		wg.Wait()
		for _, s := range statuses {
			if s != 201 {
				t.Fatalf("concurrent retries: %v", statuses)
			}
		}
		r = env.Must(200, env.Do("GET", "/api/v1/agents?limit=100", env.Creds.OrgKey, nil))
		n := strings.Count(string(r.Body), `"name":"race"`)
		if n != 1 {
			t.Fatalf("idempotent create ran %d times", n)
		}
	})
}

func TestRateLimit(t *testing.T) {
	env := apptest.Start(t, store.SQLite, func(c *app.Config) { c.RateLimit = 1; c.RateBurst = 3 })
	a := env.NewAgent("limited")
	var last apptest.Response
	for i := 0; i < 10; i++ {
		last = env.Do("GET", "/api/v1/me", a.Token, nil)
		if last.Status == 429 {
			break
		}
	}
	if last.Status != 429 || last.ErrorCode() != "rate_limited" || last.Header.Get("Retry-After") == "" {
		t.Fatalf("got %d %v %s, want 429 with Retry-After", last.Status, last.Header, last.Body)
	}
}

func TestBadRequests(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	key := env.Creds.OrgKey
	cases := []struct {
		name   string
		method string
		path   string
		ctype  string
		body   string
		status int
		code   string
	}{
		{"huge body", "POST", "/api/v1/inboxes", "application/json", `{"username":"` + strings.Repeat("a", 2<<20) + `"}`, 413, "payload_too_large"},
		{"deep nesting", "POST", "/api/v1/inboxes", "application/json", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), 400, "invalid_request"},
		{"malformed json", "POST", "/api/v1/inboxes", "application/json", `{"username":`, 400, "invalid_request"},
		{"wrong content type", "POST", "/api/v1/inboxes", "text/xml", `<a/>`, 415, "unsupported_media_type"},
		{"unknown route", "GET", "/api/v1/nothing", "", "", 404, "not_found"},
		{"wrong method", "PUT", "/api/v1/me", "", "", 405, "method_not_allowed"},
		{"bad agent id", "GET", "/api/v1/agents/../../etc", "", "", 404, "not_found"},
		{"null metadata type", "PATCH", "/api/v1/agents/agt_x", "application/json", `{"metadata":"x"}`, 400, "invalid_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, env.BaseURL+c.path, strings.NewReader(c.body))
			req.Header.Set("Authorization", "Bearer "+key)
			if c.ctype != "" {
				req.Header.Set("Content-Type", c.ctype)
			}
			r := env.Send(req)
			if r.Status != c.status || r.ErrorCode() != c.code {
				t.Fatalf("got %d %s, want %d %s", r.Status, truncate(r.Body), c.status, c.code)
			}
			if r.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("content type %q", r.Header.Get("Content-Type"))
			}
		})
	}
}

func truncate(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// TestMeSeesChangesAtOnce: /me is cached, but an update is visible on the
// next request.
func TestMeSeesChangesAtOnce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("cachey")
		env.Must(200, env.Do("GET", "/api/v1/me", a.Token, nil))
		env.Must(200, env.Do("PATCH", "/api/v1/agents/"+a.ID, env.Creds.OrgKey, map[string]any{"name": "Renamed", "metadata": map[string]any{"v": 2}}))
		for i := 0; ; i++ {
			r := env.Must(200, env.Do("GET", "/api/v1/me", a.Token, nil))
			if strings.Contains(string(r.Body), `"name":"Renamed"`) {
				break
			}
			if i == 25 { // PostgreSQL: NOTIFY takes milliseconds; SQLite: immediate
				t.Fatalf("/me still shows the old agent: %s", r.Body)
			}
			waitMS(20)
		}
	})
}
