package vault_test

import (
	"context"
	"encoding/base32"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/vault"
)

// TestCachedReadsFollowChanges: reads are served from the cache (the
// credential row, the opened value and secret, the current code), yet a
// change answered by this node is never followed by a stale read: a rotated
// password, a replaced TOTP secret, agent_readable turned off, an unequip.
// Every read, cached or not, is in the audit history.
func TestCachedReadsFollowChanges(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		a := env.NewAgent("cache", vaultScopes...)
		id := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "c", "username": "u", "password": "first", "secret": totpB32})).JSON()["id"].(string)
		reads := 0
		readValue := func(want string) {
			t.Helper()
			reads++
			if v := env.Must(200, env.Do("GET", "/api/v1/vault/"+id, a.Token, nil)).JSON()["value"]; v != want {
				t.Fatalf("value %v, want %s", v, want)
			}
		}
		codes := 0
		readCode := func(key []byte, digits int) {
			t.Helper()
			codes++
			var got vault.TOTPCode
			env.Must(200, env.Do("GET", "/api/v1/vault/"+id+"/totp", a.Token, nil)).Decode(t, &got)
			want, err := vault.TOTPSecret{Key: key, TOTPParams: vault.TOTPParams{Algorithm: vault.AlgSHA1, Digits: digits, Period: 30}}.Code(got.ValidUntil.Add(-time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("code %+v, want %+v", got, want)
			}
		}
		for range 3 {
			readValue("first")
			readCode(totpKey, 6)
		}

		// the agent rotates the password, then the organization does
		env.Must(200, env.Do("PATCH", "/api/v1/vault/"+id, a.Token, map[string]any{"password": "second"}))
		readValue("second")
		env.Must(200, env.Do("PATCH", "/api/v1/org/vault/"+id, env.Creds.OrgKey, map[string]any{"password": "third"}))
		readValue("third")

		// a new TOTP secret with 8 digits: the next code is the new secret's
		other := []byte("another-totp-secret!")
		env.Must(200, env.Do("PATCH", "/api/v1/vault/"+id, a.Token, map[string]any{
			"secret": base32.StdEncoding.EncodeToString(other), "totp_digits": 8}))
		readCode(other, 8)
		readCode(other, 8)

		// not agent-readable any more: 403 at once, codes still served
		env.Must(200, env.Do("PATCH", "/api/v1/org/vault/"+id, env.Creds.OrgKey, map[string]any{"agent_readable": false}))
		env.Must(403, env.Do("GET", "/api/v1/vault/"+id, a.Token, nil))
		readCode(other, 8)
		env.Must(200, env.Do("PATCH", "/api/v1/org/vault/"+id, env.Creds.OrgKey, map[string]any{"agent_readable": true}))
		readValue("third")

		// unequipped: 404 for both at once
		env.Must(200, env.Do("DELETE", "/api/v1/agents/"+a.ID+"/vault/"+id, env.Creds.OrgKey, nil))
		env.Must(404, env.Do("GET", "/api/v1/vault/"+id, a.Token, nil))
		env.Must(404, env.Do("GET", "/api/v1/vault/"+id+"/totp", a.Token, nil))

		entries, err := env.App.Vault.History(ctx, principal(t, env, env.Creds.OrgKey), vault.HistoryFilter{CredentialID: id}, 200, "")
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, e := range entries {
			counts[e.Action]++
		}
		if counts[vault.ActionRead] != reads || counts[vault.ActionTOTP] != codes || counts[vault.ActionReadDenied] != 1 {
			t.Fatalf("history %v, want %d reads, %d codes, 1 refusal", counts, reads, codes)
		}
	})
}
