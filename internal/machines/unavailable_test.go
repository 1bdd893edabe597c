package machines_test

import (
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestUnavailable: without the image or without runsc, creating a machine is
// 503 naming the setup command, and the rest of the service works. It needs
// neither, so it runs everywhere.
func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  apptest.Option
		hint string
	}{
		{"no image", func(c *app.Config) { c.MachinesImageDir = t.TempDir() }, "make machines-setup"},
		{"no runsc", func(c *app.Config) { c.Runsc = "/nonexistent/runsc" }, "make machines-setup"},
		{"no image of the configured suite", func(c *app.Config) { c.MachinesSuite = "nosuchsuite" }, "make machines-setup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apptest.Each(t, func(t *testing.T, env *apptest.Env) {
				tok := env.NewAgent("nomach", auth.ComputeRead, auth.ComputeRun).Token
				r := env.Do("POST", "/api/v1/machines", tok, map[string]any{"name": "x"})
				if r.Status != 503 || r.ErrorCode() != "service_unavailable" || !strings.Contains(r.JSON()["error"].(map[string]any)["hint"].(string), tc.hint) {
					t.Errorf("create: %d %s", r.Status, r.Body)
				}
				env.Must(200, env.Do("GET", "/api/v1/machines", tok, nil))
				if r := env.Do("GET", "/api/v1/machines", tok, nil); !strings.Contains(string(r.Body), `"data":[]`) {
					t.Errorf("a failed create left a machine: %s", r.Body)
				}
				env.Must(200, env.Do("GET", "/api/v1/me", tok, nil))
			}, tc.opt)
		})
	}
}
