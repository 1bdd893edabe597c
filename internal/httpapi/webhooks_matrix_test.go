package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

// The webhook routes' rows of the auth matrix. A receiver that answers 500
// keeps deliveries failed, so replay always has something to replay.
func init() {
	ep := func(f *fixture) string { return f.webhook(f.key, f.env.Creds.OrganizationID) }
	foreign := func(f *fixture) string { return f.webhook(f.foreignKey(), "") }
	wh := func(suffix, body string) func(f *fixture) target {
		return func(f *fixture) target {
			return target{path: "/api/v1/webhooks/" + ep(f) + suffix, body: body, foreignPath: "/api/v1/webhooks/" + foreign(f) + suffix}
		}
	}
	matrix["GET /api/v1/webhooks"] = matrixRow{200, static("/api/v1/webhooks")}
	matrix["POST /api/v1/webhooks"] = matrixRow{201, func(f *fixture) target {
		return target{path: "/api/v1/webhooks", body: fmt.Sprintf(`{"url":%q}`, matrixReceiver.URL)}
	}}
	matrix["GET /api/v1/webhooks/{id}"] = matrixRow{200, wh("", "")}
	matrix["PATCH /api/v1/webhooks/{id}"] = matrixRow{200, wh("", `{"description":"m"}`)}
	matrix["DELETE /api/v1/webhooks/{id}"] = matrixRow{204, wh("", "")}
	matrix["POST /api/v1/webhooks/{id}/test"] = matrixRow{202, wh("/test", "")}
	matrix["POST /api/v1/webhooks/{id}/rotate"] = matrixRow{200, wh("/rotate", "")}
	matrix["GET /api/v1/webhooks/{id}/deliveries"] = matrixRow{200, wh("/deliveries", "")}
	matrix["POST /api/v1/webhooks/{id}/redeliver"] = matrixRow{202, wh("/redeliver", `{"since":"2020-01-01T00:00:00Z"}`)}
	matrix["POST /api/v1/webhook-deliveries/{id}/replay"] = matrixRow{202, func(f *fixture) target {
		return target{path: "/api/v1/webhook-deliveries/" + f.skippedDelivery(f.key, f.env.Creds.OrganizationID) + "/replay",
			foreignPath: "/api/v1/webhook-deliveries/" + f.skippedDelivery(f.foreignKey(), "") + "/replay"}
	}}
}

// matrixReceiver accepts every delivery of the matrix's endpoints.
var matrixReceiver = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))

// webhook creates an endpoint with key (each call a fresh one, since the
// matrix deletes some); at most 20 per organization, so old ones go first.
func (f *fixture) webhook(key, _ string) string {
	r := f.env.Do("GET", "/api/v1/webhooks", key, nil)
	if data, _ := r.JSON()["data"].([]any); len(data) >= 15 {
		for _, d := range data[5:] {
			f.env.Do("DELETE", "/api/v1/webhooks/"+d.(map[string]any)["id"].(string), key, nil)
		}
	}
	r = f.env.Must(201, f.env.Do("POST", "/api/v1/webhooks", key, map[string]any{"url": matrixReceiver.URL}))
	return r.JSON()["id"].(string)
}

// skippedDelivery makes a delivery that can be replayed: an event for a
// paused endpoint is skipped; the endpoint is then activated.
func (f *fixture) skippedDelivery(key, _ string) string {
	id := f.webhook(key, "")
	f.env.Must(200, f.env.Do("PATCH", "/api/v1/webhooks/"+id, key, map[string]any{"status": "paused"}))
	p, err := f.env.App.Authn.Authenticate(context.Background(), key)
	if err != nil {
		f.env.T.Fatal(err)
	}
	// An inbox created in the key's organization appends inbox.created.
	f.env.Must(201, f.env.Do("POST", "/api/v1/inboxes", key, map[string]any{"username": f.unique("hooked")}))
	var did string
	for range 500 {
		ds, err := f.env.App.Webhooks.Deliveries(context.Background(), p, id, 1, "")
		if err != nil {
			f.env.T.Fatal(err)
		}
		if len(ds) == 1 && ds[0].Status == webhooks.StatusSkipped {
			did = ds[0].ID
			break
		}
		f.env.App.Webhooks.Kick()
		sleepBriefly()
	}
	if did == "" {
		f.env.T.Fatal("no skipped delivery")
	}
	f.env.Must(200, f.env.Do("PATCH", "/api/v1/webhooks/"+id, key, map[string]any{"status": "active"}))
	return did
}

// TestWebhookBadInput: malformed bodies and parameters are 400 with the
// envelope; an agent token is 403.
func TestWebhookBadInput(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		key := env.Creds.OrgKey
		id := env.Must(201, env.Do("POST", "/api/v1/webhooks", key, map[string]any{"url": matrixReceiver.URL})).JSON()["id"].(string)
		cases := []struct{ method, path, body, field string }{
			{"POST", "/api/v1/webhooks", `{}`, "url"},
			{"POST", "/api/v1/webhooks", `{"url":"ftp://example.com/x"}`, "url"},
			{"POST", "/api/v1/webhooks", `{"url":"https://user:pw@example.com/x"}`, "url"},
			{"POST", "/api/v1/webhooks", `{"url":"https://example.com/x","event_types":["message.exploded"]}`, "event_types"},
			{"POST", "/api/v1/webhooks", `{"url":"https://example.com/x","inbox_id":"inb_01m7ymws1hpp5z907wm1w8c7yt"}`, "inbox_id"},
			{"POST", "/api/v1/webhooks", `{"url":`, ""},
			{"PATCH", "/api/v1/webhooks/" + id, `{"status":"disabled"}`, "status"},
			{"PATCH", "/api/v1/webhooks/" + id, `{"url":"not a url"}`, "url"},
			{"GET", "/api/v1/webhooks/" + id + "/deliveries?limit=201", "", "limit"},
			{"GET", "/api/v1/webhooks/" + id + "/deliveries?cursor=nope", "", "cursor"},
			{"POST", "/api/v1/webhooks/" + id + "/redeliver", `{"since":"2020-01-01T00:00:00Z","statuses":["pending"]}`, "statuses"},
		}
		for _, c := range cases {
			var body any
			if c.body != "" {
				body = c.body
			}
			r := env.Do(c.method, c.path, key, body)
			if r.Status != 400 || r.ErrorCode() != "invalid_request" || !strings.Contains(string(r.Body), c.field) {
				t.Errorf("%s %s %s: %d %s", c.method, c.path, c.body, r.Status, r.Body)
			}
		}
		env.Must(200, env.Do("GET", "/api/v1/webhooks/"+id+"/deliveries?limit=200", key, nil))
		env.Must(404, env.Do("GET", "/api/v1/webhooks/whe_nope", key, nil))
		agent := env.NewAgent("nohooks", auth.AgentScopes...)
		if r := env.Do("GET", "/api/v1/webhooks", agent.Token, nil); r.Status != 403 || r.ErrorCode() != "forbidden" {
			t.Errorf("agent token: %d %s", r.Status, r.Body)
		}
		// At most 20 endpoints.
		for range webhooks.MaxEndpoints - 1 {
			env.Must(201, env.Do("POST", "/api/v1/webhooks", key, map[string]any{"url": matrixReceiver.URL}))
		}
		if r := env.Do("POST", "/api/v1/webhooks", key, map[string]any{"url": matrixReceiver.URL}); r.Status != 409 {
			t.Errorf("21st endpoint: %d %s", r.Status, r.Body)
		}
	})
}

func sleepBriefly() { time.Sleep(10 * time.Millisecond) }
