package httpapi_test

import (
	"fmt"

	"github.com/agentsvc/agentsvc/internal/apptest"
)

// Auth matrix helpers for the vault routes.

func staticBody(path, body string) func(*fixture) target {
	return func(*fixture) target { return target{path: path, body: body} }
}

const matrixTOTPSecret = "JBSWY3DPEHPK3PXPJBSWY3DP"

// newCredential stores a login with a TOTP secret through path with token.
func newCredential(env *apptest.Env, token, path, name string) string {
	env.T.Helper()
	r := env.Must(201, env.Do("POST", path, token, map[string]any{"name": name, "username": "u", "password": "p", "secret": matrixTOTPSecret}))
	return r.JSON()["id"].(string)
}

// agentCredential targets a credential the matrix agent created, and one of
// another agent of the same organization.
func agentCredential(format, body string) func(*fixture) target {
	return func(f *fixture) target {
		own := newCredential(f.env, f.agent.Token, "/api/v1/vault", f.unique("cred"))
		other := newCredential(f.env, f.other.Token, "/api/v1/vault", f.unique("cred"))
		return target{path: fmt.Sprintf(format, own), body: body, foreignPath: fmt.Sprintf(format, other)}
	}
}

// orgCredential targets a credential of organization A, and one of B.
func orgCredential(format, body string) func(*fixture) target {
	return func(f *fixture) target {
		own := newCredential(f.env, f.key, "/api/v1/org/vault", f.unique("cred"))
		foreign := newCredential(f.env, f.foreignKey(), "/api/v1/org/vault", f.unique("cred"))
		return target{path: fmt.Sprintf(format, own), body: body, foreignPath: fmt.Sprintf(format, foreign)}
	}
}

func equipTarget(f *fixture) target {
	own := newCredential(f.env, f.key, "/api/v1/org/vault", f.unique("cred"))
	foreign := newCredential(f.env, f.foreignKey(), "/api/v1/org/vault", f.unique("cred"))
	return target{path: "/api/v1/agents/" + f.agent.ID + "/vault/" + own,
		foreignPath: "/api/v1/agents/" + f.foreign.ID + "/vault/" + foreign}
}
