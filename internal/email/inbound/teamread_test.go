package inbound_test

import (
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestTeamReadFlag checks the team members' read flag: set with an
// organization key, apart from the agent's flag, announced as
// thread.updated, cleared by new mail; agents cannot set it.
func TestTeamReadFlag(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("teamread", auth.EmailRead)
		since := time.Now().Add(-time.Second)
		mustSend(t, env, "bob@partner.example", []string{a.Address}, mail("bob@partner.example", a.Address, "Quarterly plan", "See the plan."))
		thread := waitMessage(t, env, a, "partner.example", since)["thread_id"].(string)
		path := "/api/v1/threads/" + thread
		ev := "/api/v1/inboxes/" + a.InboxID + "/events"
		cur := env.Must(200, env.Do("GET", ev, a.Token, nil)).JSON()["next_cursor"].(string)

		th := env.Must(200, env.Do("POST", path+"/team-read", env.Creds.OrgKey, map[string]any{"read": true})).JSON()
		if th["team_read"] != true || th["read"] != false {
			t.Fatalf("after team-read: %v", th)
		}
		evs := env.Must(200, env.Do("GET", ev+"?cursor="+cur, a.Token, nil)).JSON()["data"].([]any)
		if len(evs) != 1 || evs[0].(map[string]any)["type"] != "thread.updated" {
			t.Fatalf("events after team-read: %v", evs)
		}
		// Setting the same value again changes nothing and announces nothing.
		env.Must(200, env.Do("POST", path+"/team-read", env.Creds.OrgKey, map[string]any{"read": true}))
		cur = env.Must(200, env.Do("GET", ev, a.Token, nil)).JSON()["next_cursor"].(string)
		if n := len(env.Must(200, env.Do("GET", ev+"?cursor="+cur, a.Token, nil)).JSON()["data"].([]any)); n != 0 {
			t.Errorf("a no-op team-read appended %d events", n)
		}
		// The agent's own view is unchanged, and the agent cannot set it.
		if got := env.Must(200, env.Do("GET", path, a.Token, nil)).JSON(); got["read"] != false || got["team_read"] != true {
			t.Errorf("agent's view: read %v team_read %v", got["read"], got["team_read"])
		}
		if r := env.Do("POST", path+"/team-read", a.Token, map[string]any{"read": false}); r.Status != 403 || r.ErrorCode() != "forbidden" {
			t.Errorf("agent token: %d %s", r.Status, r.Body)
		}
		if r := env.Do("POST", path+"/team-read", env.Creds.OrgKey, map[string]any{"read": "yes"}); r.Status != 400 {
			t.Errorf("bad body: %d %s", r.Status, r.Body)
		}
		// New mail in the thread clears it. (since is now: the first mail
		// must not answer this wait.)
		since = time.Now()
		mustSend(t, env, "bob@partner.example", []string{a.Address}, mail("bob@partner.example", a.Address, "Re: Quarterly plan", "One more thing."))
		if m := waitMessage(t, env, a, "partner.example", since); m["thread_id"] != thread {
			t.Fatalf("the reply started another thread: %v", m)
		}
		if got := env.Must(200, env.Do("GET", path, a.Token, nil)).JSON(); got["team_read"] != false {
			t.Errorf("team_read after new mail: %v", got["team_read"])
		}
	})
}
