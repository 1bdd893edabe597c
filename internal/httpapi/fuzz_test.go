package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/store"
)

// FuzzRequestBody sends arbitrary bytes as JSON bodies through the whole
// handler chain: no input may crash the server or produce anything but a
// 2xx or an error envelope with a 4xx status.
func FuzzRequestBody(f *testing.F) {
	for _, s := range []string{`{"username":"fz"}`, `{"username":1}`, `{`, `[]`, `null`, `{"username":"a","metadata":{"a":[1,{"b":null}]}}`, "\xff\xfe", `{"username":"\u0000"}`} {
		f.Add([]byte(s), "/api/v1/inboxes")
		f.Add([]byte(s), "/api/v1/agents/agt_01m7yjk8am0zm8bd5k13kd2tbx/tokens")
	}
	env := apptest.Start(f, store.SQLite)
	h := env.App.API.Handler()
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		req, err := http.NewRequest("POST", "http://x"+path, bytes.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+env.Creds.OrgKey)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if rec.Code >= 300 {
			var env struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Code == "" || env.Error.Message == "" {
				t.Fatalf("status %d without an envelope: %s", rec.Code, rec.Body)
			}
		}
	})
}
