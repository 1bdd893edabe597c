package httpapi_test

import (
	"os"
	"os/exec"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/machines/image"
)

// The machine rows of the auth matrix need real sandboxes (runsc and the
// base image: make machines-setup); without them they are skipped.
func sandboxesMissing() string {
	if _, err := exec.LookPath("runsc"); err != nil {
		return "runsc not installed: run `make machines-setup` to cover the machine routes"
	}
	if os.Geteuid() != 0 {
		return "the machine routes need root"
	}
	if _, ok := image.Ready(apptest.TestDataDir(), "bookworm", image.Base); !ok {
		return "the machine image is not built: run `make machines-setup`"
	}
	return ""
}

// sandboxRows are the matrix rows that need real sandboxes.
var sandboxRows = map[string]bool{}

// sharedMachines are the running machines the matrix reuses, per server and
// owner, so that read-only rows do not each start a sandbox.
var sharedMachines = map[*apptest.Env]map[string]string{}

// machine returns a running machine of the fixture's agent ("agent") or of
// the other agent ("other"); fresh makes a new one (for rows that consume it).
func (f *fixture) machine(owner string, fresh bool) string {
	env := f.env
	if !fresh {
		if id := sharedMachines[env][owner]; id != "" {
			return id
		}
	}
	tok := f.agent.Token
	if owner == "other" {
		tok = f.other.Token
	}
	r := env.Must(201, env.Do("POST", "/api/v1/machines", tok, map[string]any{"ttl_seconds": 600}))
	id := r.JSON()["id"].(string)
	if !fresh {
		if sharedMachines[env] == nil {
			sharedMachines[env] = map[string]string{}
		}
		sharedMachines[env][owner] = id
	}
	return id
}

func machinePath(f *fixture, suffix string) target {
	return target{path: "/api/v1/machines/" + f.machine("agent", false) + suffix, foreignPath: "/api/v1/machines/" + f.machine("other", false) + suffix}
}

func init() {
	rows := map[string]matrixRow{
		"GET /api/v1/machines": {ok: 200, own: static("/api/v1/machines")},
		"POST /api/v1/machines": {ok: 201, own: func(f *fixture) target {
			return target{path: "/api/v1/machines", body: `{"ttl_seconds":300}`}
		}},
		"GET /api/v1/machines/{id}": {ok: 200, own: func(f *fixture) target { return machinePath(f, "") }},
		"DELETE /api/v1/machines/{id}": {ok: 200, own: func(f *fixture) target {
			return target{path: "/api/v1/machines/" + f.machine("agent", true) + "?confirm=true",
				foreignPath: "/api/v1/machines/" + f.machine("other", false) + "?confirm=true"}
		}},
		"POST /api/v1/machines/{id}/stop": {ok: 200, own: func(f *fixture) target {
			return target{path: "/api/v1/machines/" + f.machine("agent", true) + "/stop", foreignPath: "/api/v1/machines/" + f.machine("other", false) + "/stop"}
		}},
		"POST /api/v1/machines/{id}/resume": {ok: 200, own: func(f *fixture) target {
			id := f.machine("agent", true)
			f.env.Must(200, f.env.Do("POST", "/api/v1/machines/"+id+"/stop", f.agent.Token, nil))
			return target{path: "/api/v1/machines/" + id + "/resume", foreignPath: "/api/v1/machines/" + f.machine("other", false) + "/resume"}
		}},
		"POST /api/v1/machines/{id}/run": {ok: 200, own: func(f *fixture) target {
			t := machinePath(f, "/run")
			t.body = `{"command":"true"}`
			return t
		}},
		"GET /api/v1/machines/{id}/files": {ok: 200, own: func(f *fixture) target { return machinePath(f, "/files?path=/etc/hostname") }},
		"PUT /api/v1/machines/{id}/files": {ok: 200, own: func(f *fixture) target {
			t := machinePath(f, "/files?path=/root/matrix.txt")
			t.body = "matrix"
			return t
		}},
		"POST /api/v1/machines/{id}/ports": {ok: 200, own: func(f *fixture) target {
			t := machinePath(f, "/ports")
			t.body = `{"port":8080}`
			return t
		}},
		// The shared machine has the base image: past authorization, the
		// desktop is refused with 409 (TestDesktop covers a desktop machine).
		"GET /api/v1/machines/{id}/desktop": {ok: 409, own: func(f *fixture) target { return machinePath(f, "/desktop") }},
	}
	for k, v := range rows {
		matrix[k] = v
		sandboxRows[k] = k != "GET /api/v1/machines"
	}
}
