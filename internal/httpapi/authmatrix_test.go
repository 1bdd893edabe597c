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
