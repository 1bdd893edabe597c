package inbound_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// eventsAfter reads the inbox events after cursor (no wait) and returns
// them with the next cursor.
func eventsAfter(t *testing.T, env *apptest.Env, a apptest.Agent, cursor string) ([]map[string]any, string) {
	t.Helper()
	r := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/events?cursor="+url.QueryEscape(cursor), a.Token, nil)).JSON()
	var out []map[string]any
	for _, e := range r["data"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out, r["next_cursor"].(string)
}

func eventsNow(t *testing.T, env *apptest.Env, a apptest.Agent) string {
	t.Helper()
	return env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/events", a.Token, nil)).JSON()["next_cursor"].(string)
}

func types(evs []map[string]any) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e["type"].(string))
	}
	return out
}

// TestQuarantinedMailSearch checks that thread search finds held mail by
// subject and sender only, never by the words of its withheld snippet, and
// by those words too once a team member releases it.
func TestQuarantinedMailSearch(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("searcher", auth.EmailRead, auth.EmailSend)
		env.Must(201, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/sender-rules", a.Token, map[string]any{"kind": "block", "pattern": "@held.example"}))
		mustSend(t, env, "mallory@held.example", []string{a.Address},
			mail(`"Mallory Holder" <mallory@held.example>`, a.Address, "Parcel notice", "The xylophone password is zanzibar."))
		held := waitStored(t, env, a, 1)[0].(map[string]any)
		thread := held["thread_id"].(string)

		search := func(folder, q string) []string {
			t.Helper()
			data := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/threads?folder="+folder+"&query="+url.QueryEscape(q), a.Token, nil)).JSON()["data"].([]any)
			var ids []string
			for _, d := range data {
				ids = append(ids, d.(map[string]any)["id"].(string))
			}
			return ids
		}
		for _, q := range []string{"Parcel notice", "Mallory Holder", "held example", "mallory"} {
			if got := search("quarantine", q); !slices.Equal(got, []string{thread}) {
				t.Errorf("held mail not found by subject or sender %q: %v", q, got)
			}
		}
		for _, q := range []string{"xylophone", "zanzibar", "parcel password"} {
			if got := search("quarantine", q); len(got) != 0 {
				t.Errorf("search %q matched the withheld body of held mail: %v", q, got)
			}
		}

		env.Must(200, env.Do("POST", "/api/v1/threads/"+thread+"/release", env.Creds.OrgKey, nil))
		for _, q := range []string{"xylophone", "parcel password", "Mallory"} {
			if got := search("inbox", q); !slices.Equal(got, []string{thread}) {
				t.Errorf("released mail not found by %q: %v", q, got)
			}
		}
	})
}

// TestInboundMailThreadUpdated checks that mail joining a thread appends
// thread.updated when, and only when, it changes what the agent sees of the
// thread: an archived thread back in inbox, the agent's read flag cleared,
// labels added by a send; with the payload and changes of the PATCH path.
func TestInboundMailThreadUpdated(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("tracker", auth.EmailRead, auth.EmailSend)
		since := time.Now()
		first := mail(`"Bob Buyer" <bob@shop.example>`, a.Address, "Order 77", "Where is my order?")
		mustSend(t, env, "bob@shop.example", []string{a.Address}, first)
		m := waitMessage(t, env, a, "shop.example", since)
		thread := m["thread_id"].(string)
		firstID := headerValue(first, "Message-ID")

		n := 0
		reply := func() map[string]any {
			t.Helper()
			n++
			since := time.Now()
			mustSend(t, env, "bob@shop.example", []string{a.Address},
				mail(`"Bob Buyer" <bob@shop.example>`, a.Address, "Re: Order 77", fmt.Sprintf("Follow-up %d.", n), "In-Reply-To: "+firstID))
			got := waitMessage(t, env, a, "shop.example", since)
			if got["thread_id"] != thread {
				t.Fatalf("reply %d started thread %v, want %s", n, got["thread_id"], thread)
			}
			return got
		}

		// Unread and in inbox: a reply changes nothing the agent sees.
		cur := eventsNow(t, env, a)
		reply()
		evs, cur := eventsAfter(t, env, a, cur)
		if !slices.Equal(types(evs), []string{"message.received"}) {
			t.Errorf("reply to an unread inbox thread: %v", types(evs))
		}

		// Read and archived: the next reply brings it back, unread.
		env.Must(200, env.Do("PATCH", "/api/v1/threads/"+thread, a.Token, map[string]any{"read": true, "folder": "archive", "add_labels": []string{"orders"}}))
		_, cur = eventsAfter(t, env, a, cur)
		r := reply()
		evs, cur = eventsAfter(t, env, a, cur)
		if !slices.Equal(types(evs), []string{"message.received", "thread.updated"}) {
			t.Fatalf("reply to a read archived thread: %v", types(evs))
		}
		d := evs[1]["data"].(map[string]any)
		if d["thread_id"] != thread || d["inbox_id"] != a.InboxID || d["folder"] != "inbox" || d["read"] != false ||
			fmt.Sprint(d["labels"]) != "[orders]" || d["subject"] != "Order 77" || fmt.Sprint(d["changes"]) != "[folder read]" {
			t.Errorf("thread.updated data: %v", d)
		}

		// Read again but in inbox: only the read flag changes.
		env.Must(200, env.Do("PATCH", "/api/v1/threads/"+thread, a.Token, map[string]any{"read": true}))
		_, cur = eventsAfter(t, env, a, cur)
		reply()
		evs, cur = eventsAfter(t, env, a, cur)
		if len(evs) != 2 || evs[1]["type"] != "thread.updated" || fmt.Sprint(evs[1]["data"].(map[string]any)["changes"]) != "[read]" {
			t.Errorf("reply to a read inbox thread: %v", evs)
		}

		// A send with labels joining the thread: labels change once.
		for i, want := range [][]string{{"labels"}, nil} {
			before := eventsNow(t, env, a)
			env.Must(202, env.Do("POST", "/api/v1/messages/"+r["id"].(string)+"/reply", a.Token,
				map[string]any{"text": "It ships today.", "labels": []string{"shipped"}}))
			// The send commits before its answer; its event, if any, is in the log.
			evs, _ := eventsAfter(t, env, a, before)
			var changes []string
			for _, e := range evs {
				if e["type"] == "thread.updated" {
					for _, c := range e["data"].(map[string]any)["changes"].([]any) {
						changes = append(changes, c.(string))
					}
				}
			}
			if !slices.Equal(changes, want) {
				t.Errorf("send %d with labels: thread.updated changes %v, want %v (events %v)", i+1, changes, want, evs)
			}
		}
		th := env.Must(200, env.Do("GET", "/api/v1/threads/"+thread, a.Token, nil)).JSON()
		if fmt.Sprint(th["labels"]) != "[orders shipped]" {
			t.Errorf("labels: %v", th["labels"])
		}
	})
}

// TestQuarantinedThreadNoAgentEvent checks that a change to a thread in
// quarantine (a label set on held mail) gives the agent's events feed
// nothing, as the API says, and that its release does.
func TestQuarantinedThreadNoAgentEvent(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("heldfeed", auth.EmailRead, auth.EmailSend)
		env.Must(201, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/sender-rules", a.Token, map[string]any{"kind": "block", "pattern": "@held.example"}))
		cur := eventsNow(t, env, a)
		mustSend(t, env, "mallory@held.example", []string{a.Address}, mail("mallory@held.example", a.Address, "Held subject", "held body"))
		thread := waitStored(t, env, a, 1)[0].(map[string]any)["thread_id"].(string)
		env.Must(200, env.Do("PATCH", "/api/v1/threads/"+thread, a.Token, map[string]any{"add_labels": []string{"look"}, "read": true}))
		if evs, _ := eventsAfter(t, env, a, cur); len(evs) != 0 {
			t.Errorf("events of held mail reached the agent: %v", evs)
		}
		env.Must(200, env.Do("POST", "/api/v1/threads/"+thread+"/release", env.Creds.OrgKey, nil))
		evs, _ := eventsAfter(t, env, a, cur)
		if !slices.Equal(types(evs), []string{"message.received", "thread.updated"}) || evs[1]["data"].(map[string]any)["folder"] != "inbox" {
			t.Errorf("events after release: %v", evs)
		}
	})
}

// headerValue returns the value of a header of a message built by mail.
func headerValue(raw, name string) string {
	for _, line := range strings.Split(raw, "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok {
			return v
		}
	}
	return ""
}
