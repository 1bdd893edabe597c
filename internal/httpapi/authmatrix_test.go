package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// fixture holds the credentials of the auth matrix: in organization A, an
// agent whose token has every scope, the same agent with a token without
// scopes, a second agent (whose resources the first must not see), a key
// without capabilities; and organization B, whose resources A's key must not
// see.
type fixture struct {
	env       *apptest.Env
	key       string // org A, every capability
	bareKey   string // org A, no capability
	agent     apptest.Agent
	bareToken string
	other     apptest.Agent
	foreign   apptest.Agent // in org B
	n         int
}

func (f *fixture) unique(prefix string) string {
	f.n++
	return fmt.Sprintf("%s%d", prefix, f.n)
}

// target is what one matrix case calls: the path (and body) for a resource
// the caller may see, and the same call on a resource it must not see.
type target struct {
	path, body, foreignPath string
}

// matrixRow describes one operation. own builds the target with fresh
// resources (operations like DELETE consume them).
type matrixRow struct {
	ok  int
	own func(f *fixture) target
}

func static(path string) func(*fixture) target {
	return func(*fixture) target { return target{path: path} }
}

// matrix lists every operation of the API. TestAuthMatrix fails when a routed
// operation has no row, so each new endpoint must add one.
var matrix = map[string]matrixRow{
	"GET /api/v1/me":           {200, static("/api/v1/me")},
	"GET /api/v1/inboxes":      {200, static("/api/v1/inboxes")},
	"GET /api/v1/agents":       {200, static("/api/v1/agents")},
	"GET /api/v1/audit-events": {200, static("/api/v1/audit-events")},
	"POST /api/v1/inboxes": {201, func(f *fixture) target {
		return target{path: "/api/v1/inboxes", body: fmt.Sprintf(`{"username":%q}`, f.unique("matrix"))}
	}},
	"GET /api/v1/agents/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/agents/" + f.agent.ID, foreignPath: "/api/v1/agents/" + f.foreign.ID}
	}},
	"PATCH /api/v1/agents/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/agents/" + f.agent.ID, body: `{"metadata":{"k":"v"}}`, foreignPath: "/api/v1/agents/" + f.foreign.ID}
	}},
	"DELETE /api/v1/agents/{id}": {204, func(f *fixture) target {
		a := f.env.NewAgent(f.unique("doomed"))
		return target{path: "/api/v1/agents/" + a.ID, foreignPath: "/api/v1/agents/" + f.foreign.ID}
	}},
	"POST /api/v1/agents/{id}/tokens": {201, func(f *fixture) target {
		return target{path: "/api/v1/agents/" + f.agent.ID + "/tokens", body: `{"name":"m","capabilities":["email:read"]}`,
			foreignPath: "/api/v1/agents/" + f.foreign.ID + "/tokens"}
	}},
	"GET /api/v1/agents/{id}/tokens": {200, func(f *fixture) target {
		return target{path: "/api/v1/agents/" + f.agent.ID + "/tokens", foreignPath: "/api/v1/agents/" + f.foreign.ID + "/tokens"}
	}},
	"DELETE /api/v1/agents/{id}/tokens/{token_id}": {200, func(f *fixture) target {
		a := f.env.NewAgent(f.unique("revokee"), auth.EmailRead)
		r := f.env.Must(200, f.env.Do("GET", "/api/v1/agents/"+a.ID+"/tokens", f.key, nil))
		tok := r.JSON()["data"].([]any)[0].(map[string]any)["id"].(string)
		fr := f.env.Must(200, f.env.Do("GET", "/api/v1/agents/"+f.foreign.ID+"/tokens", f.foreignKey(), nil))
		ftok := fr.JSON()["data"].([]any)[0].(map[string]any)["id"].(string)
		return target{path: "/api/v1/agents/" + a.ID + "/tokens/" + tok, foreignPath: "/api/v1/agents/" + f.foreign.ID + "/tokens/" + ftok}
	}},
	"GET /api/v1/vault":                                {200, static("/api/v1/vault")},
	"GET /api/v1/org/vault":                            {200, static("/api/v1/org/vault")},
	"GET /api/v1/org/vault/audit":                      {200, static("/api/v1/org/vault/audit")},
	"POST /api/v1/vault":                               {201, staticBody("/api/v1/vault", `{"name":"m","password":"p"}`)},
	"POST /api/v1/org/vault":                           {201, staticBody("/api/v1/org/vault", `{"name":"m","password":"p"}`)},
	"GET /api/v1/vault/{id}":                           {200, agentCredential("/api/v1/vault/%s", "")},
	"PATCH /api/v1/vault/{id}":                         {200, agentCredential("/api/v1/vault/%s", `{"name":"renamed"}`)},
	"DELETE /api/v1/vault/{id}":                        {204, agentCredential("/api/v1/vault/%s", "")},
	"GET /api/v1/vault/{id}/totp":                      {200, agentCredential("/api/v1/vault/%s/totp", "")},
	"PATCH /api/v1/org/vault/{id}":                     {200, orgCredential("/api/v1/org/vault/%s", `{"name":"renamed"}`)},
	"DELETE /api/v1/org/vault/{id}":                    {204, orgCredential("/api/v1/org/vault/%s", "")},
	"PUT /api/v1/agents/{id}/vault/{credential_id}":    {200, equipTarget},
	"DELETE /api/v1/agents/{id}/vault/{credential_id}": {200, equipTarget},
	"GET /api/v1/inboxes/{id}/messages":                {200, inboxRoute("/messages", "")},
	"GET /api/v1/inboxes/{id}/threads":                 {200, inboxRoute("/threads", "")},
	"GET /api/v1/inboxes/{id}/counts":                  {200, inboxRoute("/counts", "")},
	"GET /api/v1/inboxes/{id}/events":                  {200, inboxRoute("/events", "")},
	"POST /api/v1/inboxes/{id}/wait":                   {200, inboxRoute("/wait", `{}`)},
	"POST /api/v1/inboxes/{id}/extract/code":           {200, inboxRoute("/extract/code", `{}`)},
	"GET /api/v1/inboxes/{id}/sender-rules":            {200, inboxRoute("/sender-rules", "")},
	"POST /api/v1/inboxes/{id}/sender-rules": {201, func(f *fixture) target {
		body := fmt.Sprintf(`{"kind":"allow","pattern":"@%s.example"}`, f.unique("allowed"))
		return target{path: "/api/v1/inboxes/" + f.agent.InboxID + "/sender-rules", body: body, foreignPath: "/api/v1/inboxes/" + f.other.InboxID + "/sender-rules"}
	}},
	"DELETE /api/v1/inboxes/{id}/sender-rules/{rule_id}": {204, func(f *fixture) target {
		return target{path: "/api/v1/inboxes/" + f.agent.InboxID + "/sender-rules/" + f.rule(f.agent),
			foreignPath: "/api/v1/inboxes/" + f.other.InboxID + "/sender-rules/" + f.rule(f.other)}
	}},
	"GET /api/v1/messages/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/messages/" + f.mail(f.agent, false, "").msg, foreignPath: "/api/v1/messages/" + f.mail(f.other, false, "").msg}
	}},
	"GET /api/v1/messages/{id}/raw": {200, func(f *fixture) target {
		return target{path: "/api/v1/messages/" + f.mail(f.agent, false, "").msg + "/raw", foreignPath: "/api/v1/messages/" + f.mail(f.other, false, "").msg + "/raw"}
	}},
	"GET /api/v1/attachments/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/attachments/" + f.mail(f.agent, false, "").att, foreignPath: "/api/v1/attachments/" + f.mail(f.other, false, "").att}
	}},
	"GET /api/v1/attachments/{id}/text": {200, func(f *fixture) target {
		return target{path: "/api/v1/attachments/" + f.mail(f.agent, false, "").att + "/text", foreignPath: "/api/v1/attachments/" + f.mail(f.other, false, "").att + "/text"}
	}},
	"GET /api/v1/threads/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/threads/" + f.mail(f.agent, false, "").thread, foreignPath: "/api/v1/threads/" + f.mail(f.other, false, "").thread}
	}},
	"PATCH /api/v1/threads/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/threads/" + f.mail(f.agent, false, "").thread, body: `{"read":true,"add_labels":["m"]}`,
			foreignPath: "/api/v1/threads/" + f.mail(f.other, false, "").thread}
	}},
	"DELETE /api/v1/threads/{id}": {204, func(f *fixture) target {
		return target{path: "/api/v1/threads/" + f.mail(f.agent, false, "trash").thread + "?confirm=true",
			foreignPath: "/api/v1/threads/" + f.mail(f.other, false, "trash").thread + "?confirm=true"}
	}},
	"POST /api/v1/threads/{id}/release": {200, func(f *fixture) target {
		return target{path: "/api/v1/threads/" + f.mail(f.agent, true, "").thread + "/release",
			foreignPath: "/api/v1/threads/" + f.mail(f.foreign, true, "").thread + "/release"}
	}},
	"POST /api/v1/threads/{id}/team-read": {200, func(f *fixture) target {
		return target{path: "/api/v1/threads/" + f.mail(f.agent, false, "").thread + "/team-read", body: `{"read":true}`,
			foreignPath: "/api/v1/threads/" + f.mail(f.foreign, false, "").thread + "/team-read"}
	}},
}

var foreignKeys = map[*apptest.Env]string{}

func (f *fixture) foreignKey() string { return foreignKeys[f.env] }

func newFixture(t *testing.T, env *apptest.Env) *fixture {
	f := &fixture{env: env, key: env.Creds.OrgKey}
	f.bareKey = env.NewOrgKey()
	f.agent = env.NewAgent("matrix-agent", auth.AgentScopes...)
	r := env.Must(201, env.Do("POST", "/api/v1/agents/"+f.agent.ID+"/tokens", f.key, map[string]any{"name": "bare", "capabilities": []string{}}))
	f.bareToken = r.JSON()["token"].(string)
	f.other = env.NewAgent("matrix-other", auth.AgentScopes...)
	_, fkey := env.NewOrg("Other Org")
	foreignKeys[env] = fkey
	f.foreign = env.NewAgentWithKey(fkey, "foreign", auth.AgentScopes...)
	return f
}

// TestAuthMatrix covers every route × {no token, wrong kind of credential,
// credential without the capability, with it, another's resource}.
func TestAuthMatrix(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newFixture(t, env)
		routes := env.App.API.Routes()
		for _, rt := range routes {
			name := rt.Method + " " + rt.Path
			row, ok := matrix[name]
			if !ok {
				t.Errorf("%s has no row in the auth matrix", name)
				continue
			}
			t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
				if why := sandboxesMissing(); sandboxRows[name] && why != "" {
					t.Skip(why)
				}
				call := func(token string, tg target, path string) apptest.Response {
					var body any
					if tg.body != "" {
						body = tg.body
					}
					return env.Do(rt.Method, path, token, body)
				}
				expect := func(label string, r apptest.Response, status int, code string) {
					t.Helper()
					if r.Status != status || (code != "" && r.ErrorCode() != code) {
						t.Errorf("%s: got %d %s, want %d %s", label, r.Status, r.Body, status, code)
					}
				}
				if rt.Access.Public {
					tg := row.own(f)
					expect("no token", call("", tg, tg.path), row.ok, "")
					return
				}
				tg := row.own(f)
				expect("no token", call("", tg, tg.path), 401, "unauthorized")

				// the right kind of credential, with and without the capability
				var right, bare, wrongKind string
				if rt.Access.Kind == auth.KindAgent {
					right, bare, wrongKind = f.agent.Token, f.bareToken, f.key
				} else {
					right, bare, wrongKind = f.key, f.bareKey, f.agent.Token
				}
				expect("wrong kind of credential", call(wrongKind, tg, tg.path), 403, "forbidden")
				if rt.Access.Capability != "" {
					r := call(bare, tg, tg.path)
					expect("without capability", r, 403, "forbidden")
					if !strings.Contains(r.JSON()["error"].(map[string]any)["message"].(string), rt.Access.Capability) {
						t.Errorf("403 message does not name %s: %s", rt.Access.Capability, r.Body)
					}
				}
				if len(rt.Access.AnyOf) > 0 {
					r := call(bare, tg, tg.path)
					expect("without any of the capabilities", r, 403, "forbidden")
					for _, c := range rt.Access.AnyOf {
						if !strings.Contains(r.JSON()["error"].(map[string]any)["message"].(string), c) {
							t.Errorf("403 message does not name %s: %s", c, r.Body)
						}
					}
				}
				if tg.foreignPath != "" {
					expect("another's resource", call(right, tg, tg.foreignPath), 404, "not_found")
				}
				tg = row.own(f)
				expect("with capability", call(right, tg, tg.path), row.ok, "")
			})
		}
		for name := range matrix {
			found := false
			for _, rt := range routes {
				found = found || rt.Method+" "+rt.Path == name
			}
			if !found {
				t.Errorf("matrix row %s matches no route", name)
			}
		}
	})
}
