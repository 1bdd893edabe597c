package vault_test

import (
	"bytes"
	"context"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/vault"
)

// totpKey is a distinctive 20-byte secret, easy to look for in raw bytes.
var totpKey = []byte("TOTP-RAW-SECRET-7q9z")

var totpB32 = base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(totpKey)

var vaultScopes = []string{auth.VaultMetadata, auth.VaultUse, auth.VaultWrite}

// bodies collects every response body of a test, to check afterwards that
// no path ever returned the TOTP secret.
type bodies struct{ all [][]byte }

func (b *bodies) do(env *apptest.Env, method, path, token string, body any) apptest.Response {
	env.T.Helper()
	r := env.Do(method, path, token, body)
	b.all = append(b.all, r.Body)
	return r
}

func (b *bodies) mustNotContain(t *testing.T, needles ...[]byte) {
	t.Helper()
	for _, body := range b.all {
		for _, n := range needles {
			if bytes.Contains(bytes.ToUpper(body), bytes.ToUpper(n)) {
				t.Fatalf("a response contains %q: %s", n, body)
			}
		}
	}
}

func principal(t testing.TB, env *apptest.Env, token string) *auth.Principal {
	t.Helper()
	p, err := env.App.Authn.Authenticate(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// oathtoolCode asks the independent implementation, or returns "" when it is
// not installed.
func oathtoolCode(t *testing.T, b32 string, digits int, at int64) string {
	t.Helper()
	if _, err := exec.LookPath("oathtool"); err != nil {
		t.Log("oathtool not installed: comparing with the RFC 6238 implementation only")
		return ""
	}
	out, err := exec.Command("oathtool", "--totp", fmt.Sprintf("--digits=%d", digits), fmt.Sprintf("--now=@%d", at), "-b", b32).CombinedOutput()
	if err != nil {
		t.Fatalf("oathtool: %v %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestLoginWithTOTPFlow is the "done when": an agent stores a login
// with a TOTP secret, reads the password and a code oathtool agrees with,
// never sees the secret again, and every read is in the audit history.
func TestLoginWithTOTPFlow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		var b bodies
		agent := env.NewAgent("vaulter", vaultScopes...)
		uri := "otpauth://totp/GitHub:vaulter?secret=" + totpB32 + "&issuer=GitHub&digits=6&period=30"
		r := env.Must(201, b.do(env, "POST", "/api/v1/vault", agent.Token, map[string]any{
			"name": "GitHub", "username": "vaulter@example.com", "generate": true, "secret": uri,
			"allowed_origins": []string{"https://GitHub.com/", "https://github.com:443"},
		}))
		var created vault.WithSecret
		r.Decode(t, &created)
		if len(created.Value) != 32 || !created.HasTOTP || !created.HasValue || created.Kind != "login" || !created.AgentReadable {
			t.Fatalf("created %+v", created)
		}
		if fmt.Sprint(created.AllowedOrigins) != "[https://github.com]" {
			t.Fatalf("allowed_origins %v", created.AllowedOrigins)
		}
		id, generated := created.ID, created.Value

		// the list is metadata only
		r = env.Must(200, b.do(env, "GET", "/api/v1/vault", agent.Token, nil))
		if !strings.Contains(string(r.Body), id) || strings.Contains(string(r.Body), generated) {
			t.Fatalf("list: %s", r.Body)
		}
		// the value
		r = env.Must(200, b.do(env, "GET", "/api/v1/vault/"+id, agent.Token, nil))
		if got := r.JSON()["value"]; got != generated {
			t.Fatalf("read value %v, want the generated password", got)
		}
		// a code, checked against our RFC 6238 code and oathtool for the same step
		r = env.Must(200, b.do(env, "GET", "/api/v1/vault/"+id+"/totp", agent.Token, nil))
		var code vault.TOTPCode
		r.Decode(t, &code)
		at := code.ValidUntil.Unix() - 1
		if code.Period != 30 || code.ValidUntil.Unix()%30 != 0 || time.Until(code.ValidUntil) > 31*time.Second || len(code.Code) != 6 {
			t.Fatalf("code %+v", code)
		}
		want, _ := vault.TOTPSecret{Key: totpKey, TOTPParams: vault.DefaultTOTPParams}.Code(time.Unix(at, 0))
		if code.Code != want.Code {
			t.Fatalf("code %s, want %s", code.Code, want.Code)
		}
		if o := oathtoolCode(t, totpB32, 6, at); o != "" && o != code.Code {
			t.Fatalf("code %s, oathtool says %s", code.Code, o)
		}

		// rotate: a chosen password, then a generated one (returned once)
		env.Must(200, b.do(env, "PATCH", "/api/v1/vault/"+id, agent.Token, map[string]any{"password": "rotated-1"}))
		if v := env.Must(200, b.do(env, "GET", "/api/v1/vault/"+id, agent.Token, nil)).JSON()["value"]; v != "rotated-1" {
			t.Fatalf("after rotation: %v", v)
		}
		r = env.Must(200, b.do(env, "PATCH", "/api/v1/vault/"+id, agent.Token, map[string]any{"generate": true, "generate_length": 20, "generate_symbols": 0}))
		gen2, _ := r.JSON()["value"].(string)
		if len(gen2) != 20 {
			t.Fatalf("generated rotation: %s", r.Body)
		}
		if v := env.Must(200, b.do(env, "GET", "/api/v1/vault/"+id, agent.Token, nil)).JSON()["value"]; v != gen2 {
			t.Fatalf("after generated rotation: %v", v)
		}
		// replace the TOTP secret (8 digits) and read a code again
		env.Must(200, b.do(env, "PATCH", "/api/v1/vault/"+id, agent.Token, map[string]any{"secret": totpB32, "totp_digits": 8}))
		r = env.Must(200, b.do(env, "GET", "/api/v1/vault/"+id+"/totp", agent.Token, nil))
		r.Decode(t, &code)
		if len(code.Code) != 8 {
			t.Fatalf("8-digit code: %+v", code)
		}

		// the secret was never returned: not by create, list, read, PATCH, totp, or the org views
		env.Must(200, b.do(env, "GET", "/api/v1/org/vault", env.Creds.OrgKey, nil))
		hist := env.Must(200, b.do(env, "GET", "/api/v1/org/vault/audit?credential_id="+id, env.Creds.OrgKey, nil))
		b.mustNotContain(t, []byte(totpB32), totpKey, []byte(url.QueryEscape(totpB32)))

		// every read is in the history, with the agent and the token
		me := env.Must(200, env.Do("GET", "/api/v1/me", agent.Token, nil)).JSON()
		tokenID := me["token"].(map[string]any)["id"].(string)
		var page struct {
			Data []audit.Entry `json:"data"`
		}
		hist.Decode(t, &page)
		var actions []string
		for _, e := range page.Data {
			actions = append(actions, e.Action)
			if e.ActorID != agent.ID || e.CredentialID != tokenID || e.TargetID != id || e.At.IsZero() {
				t.Fatalf("entry %+v: want agent %s, token %s, credential %s", e, agent.ID, tokenID, id)
			}
		}
		// ids order entries by millisecond, so within one the order is free: compare counts
		counts := map[string]int{}
		for _, a := range actions {
			counts[a]++
		}
		if fmt.Sprint(counts) != "map[vault.create:1 vault.read:3 vault.totp:2 vault.update:3]" {
			t.Fatalf("history %v", actions)
		}

		// delete
		env.Must(204, env.Do("DELETE", "/api/v1/vault/"+id, agent.Token, nil))
		if r := env.Do("GET", "/api/v1/vault/"+id, agent.Token, nil); r.Status != 404 {
			t.Fatalf("after delete: %d", r.Status)
		}
		r = env.Must(200, env.Do("GET", "/api/v1/org/vault/audit?credential_id="+id+"&limit=1", env.Creds.OrgKey, nil))
		if !strings.Contains(string(r.Body), `"vault.delete"`) {
			t.Fatalf("delete not in history: %s", r.Body)
		}
	})
}

// TestHistoryFiltersAndPages checks the org-key history: filters by
// credential, agent and time, and cursor pagination without gaps.
func TestHistoryFiltersAndPages(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("hist-a", vaultScopes...)
		bAgent := env.NewAgent("hist-b", vaultScopes...)
		mk := func(token, name string) string {
			r := env.Must(201, env.Do("POST", "/api/v1/vault", token, map[string]any{"name": name, "kind": "api_key", "password": "k-" + name}))
			return r.JSON()["id"].(string)
		}
		ca, cb := mk(a.Token, "a"), mk(bAgent.Token, "b")
		time.Sleep(5 * time.Millisecond) // the creates are strictly before start
		start := time.Now()
		for range 3 {
			env.Must(200, env.Do("GET", "/api/v1/vault/"+ca, a.Token, nil))
			env.Must(200, env.Do("GET", "/api/v1/vault/"+cb, bAgent.Token, nil))
		}
		// an unrelated audit entry (a token) must not show in the vault history
		env.Must(201, env.Do("POST", "/api/v1/agents/"+a.ID+"/tokens", env.Creds.OrgKey, map[string]any{"name": "x", "capabilities": []string{}}))

		type page struct {
			Data       []audit.Entry `json:"data"`
			NextCursor string        `json:"next_cursor"`
		}
		list := func(q string) []audit.Entry {
			var out []audit.Entry
			cursor := ""
			for i := 0; ; i++ {
				path := "/api/v1/org/vault/audit?limit=2&" + q
				if cursor != "" {
					path += "&cursor=" + cursor
				}
				var p page
				env.Must(200, env.Do("GET", path, env.Creds.OrgKey, nil)).Decode(t, &p)
				out = append(out, p.Data...)
				if p.NextCursor == "" {
					return out
				}
				cursor = p.NextCursor
				if i > 20 {
					t.Fatal("pagination does not end")
				}
			}
		}
		all := list("")
		if len(all) != 8 {
			t.Fatalf("history has %d entries, want 8 (2 creates, 6 reads)", len(all))
		}
		seen := map[string]bool{}
		for i, e := range all {
			if !strings.HasPrefix(e.Action, "vault.") || seen[e.ID] || (i > 0 && e.ID >= all[i-1].ID) {
				t.Fatalf("entry %d %+v: not a vault entry, repeated, or out of order", i, e)
			}
			seen[e.ID] = true
		}
		if got := list("credential_id=" + ca); len(got) != 4 {
			t.Fatalf("by credential: %d entries, want 4", len(got))
		}
		if got := list("agent_id=" + bAgent.ID); len(got) != 4 || got[0].ActorID != bAgent.ID {
			t.Fatalf("by agent: %d entries, want 4", len(got))
		}
		since := url.QueryEscape(start.UTC().Format(time.RFC3339Nano))
		if got := list("since=" + since); len(got) != 6 {
			t.Fatalf("since: %d entries, want 6", len(got))
		}
		until := url.QueryEscape(start.UTC().Format(time.RFC3339Nano))
		if got := list("until=" + until); len(got) != 2 {
			t.Fatalf("until: %d entries, want 2", len(got))
		}
		if r := env.Do("GET", "/api/v1/org/vault/audit?cursor=nope", env.Creds.OrgKey, nil); r.Status != 400 {
			t.Fatalf("bad cursor: %d", r.Status)
		}
	})
}

// TestVisibilityAndReadability: equipped-only visibility, a credential that
// is not agent-readable (403 on its value by every path, codes still
// served), organization-managed credentials, and the machine hand-off.
func TestVisibilityAndReadability(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		var b bodies
		a := env.NewAgent("vis-a", vaultScopes...)
		other := env.NewAgent("vis-b", vaultScopes...)
		own := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "mine", "password": "own-pass"})).JSON()["id"].(string)
		for _, path := range []string{"/api/v1/vault/" + own, "/api/v1/vault/" + own + "/totp"} {
			if r := env.Do("GET", path, other.Token, nil); r.Status != 404 || r.ErrorCode() != "not_found" {
				t.Fatalf("another agent's credential %s: %d %s", path, r.Status, r.Body)
			}
		}
		if r := env.Do("PATCH", "/api/v1/vault/"+own, other.Token, map[string]any{"password": "x"}); r.Status != 404 {
			t.Fatalf("PATCH another agent's credential: %d", r.Status)
		}
		if r := env.Must(200, env.Do("GET", "/api/v1/vault", other.Token, nil)); strings.Contains(string(r.Body), own) {
			t.Fatal("another agent lists the credential")
		}

		// organization credential, not agent-readable, with a TOTP secret
		r := env.Must(201, env.Do("POST", "/api/v1/org/vault", env.Creds.OrgKey, map[string]any{
			"name": "shared", "username": "ops", "password": "ORG-SECRET-PASSWORD", "agent_readable": false, "secret": totpB32}))
		shared := r.JSON()["id"].(string)
		if r.JSON()["value"] != nil {
			t.Fatalf("create returned a value it did not generate: %s", r.Body)
		}
		if r := env.Do("GET", "/api/v1/vault/"+shared, a.Token, nil); r.Status != 404 {
			t.Fatalf("unequipped org credential: %d", r.Status)
		}
		r = env.Must(200, env.Do("PUT", "/api/v1/agents/"+a.ID+"/vault/"+shared, env.Creds.OrgKey, nil))
		if !strings.Contains(string(r.Body), a.ID) {
			t.Fatalf("equip response lacks the agent: %s", r.Body)
		}
		env.Must(200, env.Do("PUT", "/api/v1/agents/"+a.ID+"/vault/"+shared, env.Creds.OrgKey, nil)) // twice is fine
		r = b.do(env, "GET", "/api/v1/vault/"+shared, a.Token, nil)
		if r.Status != 403 || r.ErrorCode() != "forbidden" {
			t.Fatalf("non-readable value: %d %s", r.Status, r.Body)
		}
		env.Must(200, b.do(env, "GET", "/api/v1/vault/"+shared+"/totp", a.Token, nil))
		b.do(env, "GET", "/api/v1/vault", a.Token, nil)
		b.do(env, "GET", "/api/v1/org/vault", env.Creds.OrgKey, nil)
		// an agent cannot make it readable: it did not create it
		if r := b.do(env, "PATCH", "/api/v1/vault/"+shared, a.Token, map[string]any{"agent_readable": true}); r.Status != 403 {
			t.Fatalf("agent PATCH of an org credential: %d %s", r.Status, r.Body)
		}
		if r := b.do(env, "DELETE", "/api/v1/vault/"+shared, a.Token, nil); r.Status != 403 {
			t.Fatalf("agent DELETE of an org credential: %d", r.Status)
		}
		// nor can a machine receive it
		_, err := env.App.Vault.ValueForMachine(ctx, principal(t, env, a.Token), shared, "mch_test")
		if e := apierr.From(err); e.Status != 403 {
			t.Fatalf("inject non-readable: %v", err)
		}
		b.mustNotContain(t, []byte("ORG-SECRET-PASSWORD"), []byte(totpB32), totpKey)

		// the machine hand-off of a readable credential, audited as vault.inject
		inj, err := env.App.Vault.ValueForMachine(ctx, principal(t, env, a.Token), own, "mch_test")
		if err != nil || string(inj.Value) != "own-pass" || inj.Name != "mine" {
			t.Fatalf("inject: %+v %v", inj, err)
		}
		if _, err := env.App.Vault.ValueForMachine(ctx, principal(t, env, other.Token), own, "mch_test"); apierr.From(err).Status != 404 {
			t.Fatalf("inject another agent's credential: %v", err)
		}
		hist := env.Must(200, env.Do("GET", "/api/v1/org/vault/audit?agent_id="+a.ID, env.Creds.OrgKey, nil))
		for _, want := range []string{`"vault.inject"`, `"mch_test"`, `"vault.read_denied"`, `"vault.totp"`} {
			if !strings.Contains(string(hist.Body), want) {
				t.Fatalf("history lacks %s: %s", want, hist.Body)
			}
		}

		// the organization makes it readable; then the agent reads it
		env.Must(200, env.Do("PATCH", "/api/v1/org/vault/"+shared, env.Creds.OrgKey, map[string]any{"agent_readable": true}))
		if v := env.Must(200, env.Do("GET", "/api/v1/vault/"+shared, a.Token, nil)).JSON()["value"]; v != "ORG-SECRET-PASSWORD" {
			t.Fatalf("readable value: %v", v)
		}
		// unequip hides it again
		env.Must(200, env.Do("DELETE", "/api/v1/agents/"+a.ID+"/vault/"+shared, env.Creds.OrgKey, nil))
		if r := env.Do("GET", "/api/v1/vault/"+shared+"/totp", a.Token, nil); r.Status != 404 {
			t.Fatalf("after unequip: %d", r.Status)
		}
		// a totp credential has no value: 409, and codes work
		tc := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "2fa", "kind": "totp", "secret": totpB32})).JSON()["id"].(string)
		if r := env.Do("GET", "/api/v1/vault/"+tc, a.Token, nil); r.Status != 409 || r.ErrorCode() != "invalid_state" {
			t.Fatalf("value of a totp credential: %d %s", r.Status, r.Body)
		}
		env.Must(200, env.Do("GET", "/api/v1/vault/"+tc+"/totp", a.Token, nil))
		// a login without a secret has no codes
		if r := env.Do("GET", "/api/v1/vault/"+own+"/totp", a.Token, nil); r.Status != 409 {
			t.Fatalf("totp of a login without secret: %d", r.Status)
		}
	})
}

// TestBadInput: each refused with a clear 400 (413 for a huge body) naming
// the field, never echoing a secret.
func TestBadInput(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("bad", vaultScopes...)
		huge := strings.Repeat("n", 10<<20)
		cases := []struct {
			name   string
			body   any
			status int
			want   []string
		}{
			{"wrong base32", map[string]any{"name": "x", "kind": "totp", "secret": "NOT-BASE32-1890!!"}, 400, []string{"secret", "base32"}},
			{"otpauth unsupported parameters", map[string]any{"name": "x", "kind": "totp",
				"secret": "otpauth://totp/x?secret=" + totpB32 + "&image=https%3A%2F%2Fx%2Fa.png&lock=true"}, 400, []string{"secret", `"image"`, `"lock"`}},
			{"otpauth hotp", map[string]any{"name": "x", "kind": "totp", "secret": "otpauth://hotp/x?secret=" + totpB32 + "&counter=1"}, 400, []string{"secret", "hotp"}},
			{"password and generate", map[string]any{"name": "x", "password": "p", "generate": true}, 400, []string{"password", "generate"}},
			{"name of 10 MB", map[string]any{"name": huge, "password": "p"}, 413, []string{}},
			{"long name", map[string]any{"name": strings.Repeat("n", 201), "password": "p"}, 400, []string{"name"}},
			{"missing name", map[string]any{"password": "p"}, 400, []string{"name"}},
			{"blank name", map[string]any{"name": "   ", "password": "p"}, 400, []string{"name"}},
			{"unknown kind", map[string]any{"name": "x", "kind": "ssh_key", "password": "p"}, 400, []string{"kind"}},
			{"totp without secret", map[string]any{"name": "x", "kind": "totp"}, 400, []string{"secret", "required"}},
			{"login without password", map[string]any{"name": "x"}, 400, []string{"password"}},
			{"secret on api_key", map[string]any{"name": "x", "kind": "api_key", "password": "k", "secret": totpB32}, 400, []string{"secret"}},
			{"origin with path", map[string]any{"name": "x", "password": "p", "allowed_origins": []string{"https://example.com/login"}}, 400, []string{"allowed_origins[0]"}},
			{"origin not a URL", map[string]any{"name": "x", "password": "p", "allowed_origins": []string{"example.com"}}, 400, []string{"allowed_origins[0]"}},
			{"bad totp digits", map[string]any{"name": "x", "kind": "totp", "secret": totpB32, "totp_digits": 7}, 400, []string{"totp_digits"}},
			{"generate too short", map[string]any{"name": "x", "generate": true, "generate_length": 6}, 400, []string{"generate_length"}},
			{"unknown field", map[string]any{"name": "x", "password": "p", "value": "v"}, 400, []string{"value"}},
			{"malformed JSON", `{"name":`, 400, []string{}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := env.Do("POST", "/api/v1/vault", a.Token, c.body)
				if r.Status != c.status {
					t.Fatalf("status %d, want %d: %.300s", r.Status, c.status, r.Body)
				}
				msg := r.JSON()["error"].(map[string]any)["message"].(string)
				for _, w := range c.want {
					if !strings.Contains(msg, w) {
						t.Errorf("message %q does not name %s", msg, w)
					}
				}
				if c.status == 413 && r.ErrorCode() != "payload_too_large" {
					t.Errorf("code %s", r.ErrorCode())
				}
				if strings.Contains(strings.ToUpper(string(r.Body)), totpB32) {
					t.Errorf("error echoes the secret: %s", r.Body)
				}
			})
		}
		// PATCH refuses the same way
		id := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "x", "password": "p"})).JSON()["id"].(string)
		r := env.Do("PATCH", "/api/v1/vault/"+id, a.Token, map[string]any{"password": "p", "generate": true})
		if r.Status != 400 || !strings.Contains(string(r.Body), "password") || !strings.Contains(string(r.Body), "generate") {
			t.Fatalf("PATCH password+generate: %d %s", r.Status, r.Body)
		}
		if r := env.Do("PATCH", "/api/v1/vault/"+id, a.Token, map[string]any{"secret": "1234"}); r.Status != 400 || !strings.Contains(string(r.Body), "secret") {
			t.Fatalf("PATCH bad secret: %d %s", r.Status, r.Body)
		}
		if r := env.Do("GET", "/api/v1/vault/not-an-id", a.Token, nil); r.Status != 404 {
			t.Fatalf("malformed id: %d", r.Status)
		}
	})
}

// TestNothingSecretInTheDatabase reads the raw SQLite files (database and
// WAL) and, on PostgreSQL, every column of the tables as text, and finds no
// password, key or TOTP secret in any form.
func TestNothingSecretInTheDatabase(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("raw", vaultScopes...)
		const password, apiKey = "PLAINTEXT-PASSWORD-8c1e", "sk_live_PLAINTEXTKEY_51c2"
		r := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "site", "username": "me", "password": password, "secret": totpB32}))
		id := r.JSON()["id"].(string)
		gen := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "gen", "generate": true})).JSON()["value"].(string)
		env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "key", "kind": "api_key", "password": apiKey}))
		env.Must(201, env.Do("POST", "/api/v1/org/vault", env.Creds.OrgKey, map[string]any{"name": "uri", "kind": "totp",
			"secret": "otpauth://totp/x?secret=" + totpB32 + "&algorithm=SHA256"}))
		env.Must(200, env.Do("GET", "/api/v1/vault/"+id, a.Token, nil))
		env.Must(200, env.Do("GET", "/api/v1/vault/"+id+"/totp", a.Token, nil))

		needles := map[string][]byte{
			"password": []byte(password), "api key": []byte(apiKey), "generated password": []byte(gen),
			"totp base32": []byte(totpB32), "totp raw": totpKey,
		}
		for name, n := range needles {
			needles[name+" (hex)"] = []byte(hex.EncodeToString(n))
		}
		check := func(where string, hay []byte) {
			t.Helper()
			for name, n := range needles {
				if bytes.Contains(bytes.ToLower(hay), bytes.ToLower(n)) {
					t.Errorf("%s contains the %s", where, name)
				}
			}
		}
		if env.App.DB.Dialect() == store.SQLite {
			files, _ := filepath.Glob(filepath.Join(env.Config.DataDir, "agentsvc.db*"))
			if len(files) == 0 {
				t.Fatal("no database files")
			}
			for _, f := range files {
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				check(filepath.Base(f), raw)
			}
			// the test can find what it looks for: the name is in the clear
			raw, _ := os.ReadFile(filepath.Join(env.Config.DataDir, "agentsvc.db-wal"))
			main, _ := os.ReadFile(filepath.Join(env.Config.DataDir, "agentsvc.db"))
			if !bytes.Contains(append(raw, main...), []byte("PLAINTEXT")) && !bytes.Contains(append(raw, main...), []byte("site")) {
				t.Fatal("the raw scan does not see rows at all")
			}
			return
		}
		for _, table := range []string{"vault_credentials", "vault_equipment", "org_data_keys", "audit_events", "events", "idempotency_keys"} {
			rows, err := env.App.DB.QueryContext(context.Background(), `SELECT t::text FROM `+table+` t`)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				check(table, []byte(s))
				n++
			}
			rows.Close()
			if table == "vault_credentials" && n != 4 {
				t.Fatalf("%d credentials, want 4", n)
			}
		}
	})
}

// TestMasterKeyRotationAcrossApps rotates the master key while two servers
// share the database, and checks that both, and a third started afterwards,
// read every value and code; a server whose caches (data key, credential,
// opened value) are warm from before the rotation keeps serving, and a
// change it makes afterwards is neither served stale nor unreadable under
// the new master key.
func TestMasterKeyRotationAcrossApps(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		a := env.NewAgent("rot-a", vaultScopes...)
		idA := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "a", "password": "pass-a", "secret": totpB32})).JSON()["id"].(string)
		env.Must(200, env.Do("GET", "/api/v1/vault/"+idA, a.Token, nil))
		// a second organization, used only through the first server, so the
		// second server has not cached its data key
		_, key2 := env.NewOrg("Rotation Two")
		b := env.NewAgentWithKey(key2, "rot-b", vaultScopes...)
		idB := env.Must(201, env.Do("POST", "/api/v1/vault", b.Token, map[string]any{"name": "b", "password": "pass-b"})).JSON()["id"].(string)

		env2 := apptest.StartConfig(t, env.Config)
		read := func(e *apptest.Env, token, id, want string) {
			t.Helper()
			if v := e.Must(200, e.Do("GET", "/api/v1/vault/"+id, token, nil)).JSON()["value"]; v != want {
				t.Fatalf("%s: value %v, want %s", e.BaseURL, v, want)
			}
		}
		read(env2, a.Token, idA, "pass-a")

		keyFile := filepath.Join(env.Config.DataDir, "master.key")
		before, err := seal.ReadKeyFile(keyFile)
		if err != nil {
			t.Fatal(err)
		}
		rot, err := seal.RotateMasterKey(ctx, env.App.DB, keyFile)
		if err != nil {
			t.Fatal(err)
		}
		if rot.Rewrapped != 2 || rot.RetiredIDs[0] != before[0].ID {
			t.Fatalf("rotation %+v", rot)
		}
		// both running servers keep serving; env2 meets org B's data key under
		// the new master key id and re-reads the key file
		read(env, a.Token, idA, "pass-a")
		read(env2, a.Token, idA, "pass-a")
		read(env2, b.Token, idB, "pass-b")
		env2.Must(200, env2.Do("GET", "/api/v1/vault/"+idA+"/totp", a.Token, nil))
		// a new organization's data key created by a server started before the
		// rotation is wrapped under the new key
		_, key3 := env.NewOrg("Rotation Three")
		c := env2.NewAgentWithKey(key3, "rot-c", vaultScopes...)
		idC := env2.Must(201, env2.Do("POST", "/api/v1/vault", c.Token, map[string]any{"name": "c", "password": "pass-c"})).JSON()["id"].(string)
		var stale int
		if err := env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM org_data_keys WHERE master_key_id <> $1`, rot.NewKeyID).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if stale != 0 {
			t.Fatalf("%d data keys not under the new master key", stale)
		}
		// env still holds org A's data key, the credential and its opened value
		// from before the rotation: a change made there now is sealed with the
		// cached data key, served fresh at once, and readable by a node that
		// knows only the new master key
		read(env, a.Token, idA, "pass-a")
		env.Must(200, env.Do("PATCH", "/api/v1/vault/"+idA, a.Token, map[string]any{"password": "pass-a2"}))
		read(env, a.Token, idA, "pass-a2")
		env2.Stop()
		if keys, err := seal.ReadKeyFile(keyFile); err != nil || len(keys) != 1 || keys[0].ID != rot.NewKeyID {
			t.Fatalf("key file after rotation: %v %v", keys, err)
		}
		env3 := apptest.StartConfig(t, env.Config)
		read(env3, a.Token, idA, "pass-a2")
		read(env3, b.Token, idB, "pass-b")
		read(env3, c.Token, idC, "pass-c")
		env3.Must(200, env3.Do("GET", "/api/v1/vault/"+idA+"/totp", a.Token, nil))
	})
}

// TestConcurrentReadsAllAudited: group commit loses no entry when many
// reads arrive at once.
func TestConcurrentReadsAllAudited(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		a := env.NewAgent("many", vaultScopes...)
		id := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "m", "password": "pw", "secret": totpB32})).JSON()["id"].(string)
		p := principal(t, env, a.Token)
		const n = 40
		errs := make(chan error, n)
		for i := range n {
			go func() {
				if i%2 == 0 {
					_, err := env.App.Vault.Read(ctx, p, id)
					errs <- err
				} else {
					_, err := env.App.Vault.TOTP(ctx, p, id)
					errs <- err
				}
			}()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		entries, err := env.App.Vault.History(ctx, p, vault.HistoryFilter{CredentialID: id}, 100, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != n+1 {
			t.Fatalf("%d entries, want %d reads + 1 create", len(entries), n)
		}
	})
}

// TestNoIdempotencyKeyOnCreate: the idempotency layer stores responses, and a
// create response may carry a generated password, so keys are refused there.
func TestNoIdempotencyKeyOnCreate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("idem", vaultScopes...)
		req, _ := http.NewRequest("POST", env.BaseURL+"/api/v1/vault", strings.NewReader(`{"name":"x","generate":true}`))
		req.Header.Set("Authorization", "Bearer "+a.Token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "k1")
		r := env.Send(req)
		if r.Status != 400 || !strings.Contains(string(r.Body), "idempotency_key") {
			t.Fatalf("create with Idempotency-Key: %d %s", r.Status, r.Body)
		}
		var n int
		if err := env.App.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM idempotency_keys`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("%d idempotency records stored", n)
		}
	})
}
