package httpapi_test

import (
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestThreadPatchScopes checks the reference's scope split on PATCH
// /api/v1/threads/{id}: "email:read for read and labels; email:send to
// change folder", for tokens holding read, send, both or neither.
func TestThreadPatchScopes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("filer", auth.EmailRead, auth.EmailSend)
		if err := apptest.SendMail(env.SMTPAddr(), "bob@scopes.example", []string{a.Address}, rawMail("bob@scopes.example", a.Address, "File me")); err != nil {
			t.Fatal(err)
		}
		thread := "/api/v1/threads/" + storedMessages(t, env, a, 1)[0]["thread_id"].(string)
		token := func(caps ...string) string {
			if caps == nil {
				caps = []string{}
			}
			return env.Must(201, env.Do("POST", "/api/v1/agents/"+a.ID+"/tokens", env.Creds.OrgKey,
				map[string]any{"name": "scoped", "capabilities": caps})).JSON()["token"].(string)
		}
		tokens := map[string]string{
			"read":    token(auth.EmailRead),
			"send":    token(auth.EmailSend),
			"both":    token(auth.EmailRead, auth.EmailSend),
			"neither": token(),
		}
		folder := func(f string) map[string]any { return map[string]any{"folder": f} }
		mark := map[string]any{"read": true, "add_labels": []string{"seen"}}
		both := map[string]any{"folder": "inbox", "read": false, "remove_labels": []string{"seen"}}
		cases := []struct {
			token string
			body  map[string]any
			// missing is the capability the 403 must name; "" for 200.
			missing string
		}{
			{"send", folder("archive"), ""},
			{"send", mark, auth.EmailRead},
			{"send", both, auth.EmailRead},
			{"send", map[string]any{}, auth.EmailRead},
			{"read", folder("trash"), auth.EmailSend},
			{"read", mark, ""},
			{"read", both, auth.EmailSend},
			{"read", map[string]any{}, ""},
			{"both", folder("trash"), ""},
			{"both", mark, ""},
			{"both", both, ""},
			{"neither", folder("archive"), "email:read or email:send"},
			{"neither", mark, "email:read or email:send"},
		}
		for _, c := range cases {
			before := env.Must(200, env.Do("GET", thread, a.Token, nil)).JSON()
			r := env.Do("PATCH", thread, tokens[c.token], c.body)
			after := env.Must(200, env.Do("GET", thread, a.Token, nil)).JSON()
			if c.missing == "" {
				if r.Status != 200 {
					t.Errorf("%s token, %v: %d %s", c.token, c.body, r.Status, r.Body)
					continue
				}
				if f, ok := c.body["folder"]; ok && after["folder"] != f {
					t.Errorf("%s token, %v: folder is %v", c.token, c.body, after["folder"])
				}
				if rd, ok := c.body["read"]; ok && after["read"] != rd {
					t.Errorf("%s token, %v: read is %v", c.token, c.body, after["read"])
				}
				continue
			}
			msg, _ := r.JSON()["error"].(map[string]any)["message"].(string)
			if r.Status != 403 || r.ErrorCode() != "forbidden" || !strings.Contains(msg, c.missing) {
				t.Errorf("%s token, %v: %d %s, want 403 naming %s", c.token, c.body, r.Status, r.Body, c.missing)
			}
			// A refused PATCH changes nothing, not even the fields it was allowed.
			if before["folder"] != after["folder"] || before["read"] != after["read"] || !strings.EqualFold(toString(before["labels"]), toString(after["labels"])) {
				t.Errorf("%s token, %v: refused but changed the thread: %v -> %v", c.token, c.body, before, after)
			}
		}
	})
}

func toString(v any) string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	for _, x := range v.([]any) {
		b.WriteString(x.(string) + ",")
	}
	return b.String()
}
