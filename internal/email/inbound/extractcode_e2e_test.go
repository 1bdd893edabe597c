package inbound_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestExtractCodePostalCodesAndSeparators covers what extract/code returns
// for mail that a sign-up flow really receives: a shipping or address mail
// whose only number is a US ZIP code gives no code (it used to give the ZIP
// code: "zip" matched before "zip code" and left "code" as a label), and a
// code written in digit groups comes back joined, as the OpenAPI
// description now says (it claimed codes were returned exactly as written).
func TestExtractCodePostalCodesAndSeparators(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("signup", auth.EmailRead)
		extract := func(from string, since time.Time) map[string]any {
			t.Helper()
			return env.Must(200, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/extract/code", a.Token, map[string]any{
				"from": from, "wait_seconds": 1, "since": since.UTC().Format(time.RFC3339Nano)})).JSON()
		}

		for _, tc := range []struct{ from, subject, body string }{
			{"ship@store.example", "Your order has shipped", "Shipping to: Jane Doe, 100 Congress Ave, Austin TX\nZIP code: 78701"},
			{"deliver@courier.example", "Delivery address confirmed", "We will deliver to 1 Market St, San Francisco, ZIP code 94105 on Monday."},
		} {
			since := time.Now()
			mustSend(t, env, tc.from, []string{a.Address}, mail(tc.from, a.Address, tc.subject, tc.body))
			waitMessage(t, env, a, tc.from, since)
			if got := extract(tc.from, since); got["code"] != nil {
				t.Errorf("%q: extract/code returned %v, want no code", tc.body, got["code"])
			}
		}
		since := time.Now()
		html := "<p>Address: 1 Market St, San Francisco</p><p>Zip code: 94105</p>"
		mustSend(t, env, "hello@shop.example", []string{a.Address}, strings.Replace(
			mail("hello@shop.example", a.Address, "Update your address", html), "text/plain", "text/html", 1))
		waitMessage(t, env, a, "shop.example", since)
		if got := extract("shop.example", since); got["code"] != nil {
			t.Errorf("html zip code: extract/code returned %v, want no code", got["code"])
		}

		since = time.Now()
		mustSend(t, env, "auth@app.example", []string{a.Address},
			mail("auth@app.example", a.Address, "Your code", "Your verification code is 123-456.\nZIP code 10115 is on file."))
		if got := extract("app.example", since); got["code"] != "123456" {
			t.Errorf("grouped code: extract/code returned %v, want 123456", got["code"])
		}

		var spec struct {
			Paths map[string]map[string]struct{ Description string } `json:"paths"`
		}
		env.Must(200, env.Do("GET", "/api/v1/openapi.json", "", nil)).Decode(t, &spec)
		desc := spec.Paths["/api/v1/inboxes/{id}/extract/code"]["post"].Description
		if strings.Contains(desc, "exactly as written") || !strings.Contains(desc, `"123-789" give "123789"`) {
			t.Errorf("extract/code description does not say separators are removed: %s", desc)
		}
	})
}
