package httpapi_test

import (
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestDeleteThreadHints checks that the 409 of DELETE /api/v1/threads/{id}
// outside trash and spam gives a hint that works when followed: for a thread
// in inbox, moving it to trash; for a quarantined one (which PATCH cannot
// move), a team member's release first.
func TestDeleteThreadHints(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("deleter", auth.EmailRead, auth.EmailSend)
		env.Must(201, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/sender-rules", a.Token, map[string]any{"kind": "block", "pattern": "@held.example"}))
		if err := apptest.SendMail(env.SMTPAddr(), "x@held.example", []string{a.Address}, rawMail("x@held.example", a.Address, "Held")); err != nil {
			t.Fatal(err)
		}
		held := storedMessages(t, env, a, 1)[0]
		if held["quarantined"] != true {
			t.Fatalf("blocked mail not held: %v", held)
		}
		thread := "/api/v1/threads/" + held["thread_id"].(string)

		r := env.Do("DELETE", thread+"?confirm=true", a.Token, nil)
		hint, _ := r.JSON()["error"].(map[string]any)["hint"].(string)
		if r.Status != 409 || r.ErrorCode() != "invalid_state" || !strings.Contains(hint, "/release") || strings.HasPrefix(hint, "move it to trash") {
			t.Fatalf("delete in quarantine: %d %s", r.Status, r.Body)
		}
		// The old hint's step is refused, which is why it must not be given.
		if r := env.Do("PATCH", thread, a.Token, map[string]any{"folder": "trash"}); r.Status != 409 {
			t.Fatalf("PATCH out of quarantine: %d %s", r.Status, r.Body)
		}
		// Following the hint: release, then trash, then delete.
		env.Must(200, env.Do("POST", thread+"/release", env.Creds.OrgKey, nil))
		r = env.Do("DELETE", thread+"?confirm=true", a.Token, nil)
		hint, _ = r.JSON()["error"].(map[string]any)["hint"].(string)
		if r.Status != 409 || !strings.Contains(hint, "PATCH with folder trash") {
			t.Fatalf("delete in inbox: %d %s", r.Status, r.Body)
		}
		env.Must(200, env.Do("PATCH", thread, a.Token, map[string]any{"folder": "trash"}))
		env.Must(204, env.Do("DELETE", thread+"?confirm=true", a.Token, nil))
	})
}
