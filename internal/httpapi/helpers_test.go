package httpapi_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func apptestDialects() []store.Dialect { return storetest.Dialects() }

func waitMS(ms int) { time.Sleep(time.Duration(ms) * time.Millisecond) }

// writeCreds makes a second node start in dev mode on the organization of the
// first: dev mode reuses whatever organization dev-credentials.json names.
func writeCreds(t *testing.T, dir string, c app.DevCredentials) {
	t.Helper()
	raw, _ := json.Marshal(c)
	if err := os.WriteFile(app.DevCredentialsFile(dir), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}
