package webhooks_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"testing"

	"github.com/agentsvc/agentsvc/client/webhook"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

// TestEveryEventType drives each event the service emits today through the
// real paths (API, SMTP) and checks that a receiver verifying signatures
// with client/webhook gets it, that quarantined mail reaches a key-created
// endpoint redacted and a member-created one whole, and that the events
// API shows the same id and sequence.
func TestEveryEventType(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		keyRc := newReceiver(t, nil)
		memberRc := newReceiver(t, nil)
		keyRc.clock, memberRc.clock = nowFunc, nowFunc
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": keyRc.srv.URL + "/hook", "description": "all"})
		keyRc.set(ep.Secret, nil)
		member := auth.NewPrincipal(auth.KindMember, env.Creds.OrganizationID, "", "mem_test", "owner", nil)
		mep, err := env.App.Webhooks.Create(context.Background(), member, webhooks.NewEndpoint{URL: memberRc.srv.URL,
			EventTypes: []string{"message.quarantined"}})
		if err != nil {
			t.Fatal(err)
		}
		memberRc.set(mep.Secret, nil)

		agent := env.NewAgent("hooked", auth.AgentScopes...)
		created := keyRc.waitType("inbox.created")
		if created.Body["inbox_id"] != agent.InboxID || created.Body["organization_id"] != env.Creds.OrganizationID {
			t.Fatalf("inbox.created: %v", created.Body)
		}

		sendMail(t, env, "alice@sender.example", agent.Address, "Hello hook", "first mail")
		got := keyRc.waitType("message.received")
		data := got.Body["data"].(map[string]any)
		for _, k := range []string{"message_id", "thread_id", "inbox_id", "direction", "status", "subject", "from", "snippet"} {
			if _, ok := data[k]; !ok {
				t.Errorf("message.received data lacks %s: %v", k, data)
			}
		}
		if data["subject"] != "Hello hook" || got.Header.Get(webhook.HeaderEventID) != got.Body["id"] {
			t.Errorf("message.received: %v %v", data, got.Header)
		}
		seq, err := strconv.ParseInt(got.Body["sequence"].(string), 10, 64)
		if err != nil || seq <= 0 {
			t.Fatalf("sequence %v", got.Body["sequence"])
		}

		// The events API from the start of the log shows the same event.
		cursor := base64.RawURLEncoding.EncodeToString([]byte("c1:0"))
		var evs struct {
			Data []struct {
				ID       string `json:"id"`
				Sequence string `json:"sequence"`
				Type     string `json:"type"`
			} `json:"data"`
		}
		env.Must(200, env.Do("GET", "/api/v1/inboxes/"+agent.InboxID+"/events?cursor="+cursor, agent.Token, nil)).Decode(t, &evs)
		found := false
		for _, e := range evs.Data {
			if e.ID == got.Body["id"] {
				found = e.Sequence == got.Body["sequence"] && e.Type == "message.received"
			}
		}
		if !found {
			t.Fatalf("events API %+v lacks %v with sequence %d", evs.Data, got.Body["id"], seq)
		}

		env.Must(200, env.Do("PATCH", "/api/v1/threads/"+data["thread_id"].(string), agent.Token, map[string]any{"read": true}))
		keyRc.waitType("thread.updated")

		env.Must(201, env.Do("POST", "/api/v1/inboxes/"+agent.InboxID+"/sender-rules", agent.Token,
			map[string]any{"kind": "block", "pattern": "@blocked.example"}))
		sendMail(t, env, "mallory@blocked.example", agent.Address, "Secret subject", "quarantine me")
		q := keyRc.waitType("message.quarantined")
		qd := q.Body["data"].(map[string]any)
		for _, k := range []string{"from", "subject", "snippet"} {
			if _, ok := qd[k]; ok {
				t.Errorf("key-created endpoint got %s of quarantined mail: %v", k, qd)
			}
		}
		if qd["message_id"] == nil || qd["status"] != "quarantined" {
			t.Errorf("quarantined data: %v", qd)
		}
		mq := memberRc.waitType("message.quarantined")
		if mq.Body["data"].(map[string]any)["subject"] != "Secret subject" || mq.Body["id"] != q.Body["id"] {
			t.Errorf("member-created endpoint: %v", mq.Body)
		}
		if len(memberRc.all()) != 1 {
			t.Errorf("event_types filter let through %d deliveries", len(memberRc.all()))
		}

		env.Must(204, env.Do("DELETE", "/api/v1/agents/"+agent.ID, env.Creds.OrgKey, nil))
		keyRc.waitType("inbox.deleted")
		if keyRc.bad != 0 || memberRc.bad != 0 {
			t.Fatalf("%d/%d deliveries failed verification", keyRc.bad, memberRc.bad)
		}
		// Each event arrived once here (nothing failed, so nothing was retried).
		seen := map[any]int{}
		for _, g := range keyRc.all() {
			seen[g.Body["id"]]++
			if seen[g.Body["id"]] > 1 {
				t.Errorf("event %v delivered twice", g.Body["id"])
			}
		}
	})
}

// TestQuarantinedThreadUpdatedRedacted checks that thread.updated of a
// thread in quarantine (labels set on held mail) reaches a key-created
// endpoint without the held mail's subject, like message.quarantined, and a
// member-created one whole; after release the thread's events are whole.
func TestQuarantinedThreadUpdatedRedacted(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		keyRc := newReceiver(t, nowFunc)
		memberRc := newReceiver(t, nowFunc)
		only := []string{"thread.updated"}
		ep := createEndpoint(t, env, env.Creds.OrgKey, map[string]any{"url": keyRc.srv.URL, "event_types": only})
		keyRc.set(ep.Secret, nil)
		member := auth.NewPrincipal(auth.KindMember, env.Creds.OrganizationID, "", "mem_test", "owner", nil)
		mep, err := env.App.Webhooks.Create(context.Background(), member, webhooks.NewEndpoint{URL: memberRc.srv.URL, EventTypes: only})
		if err != nil {
			t.Fatal(err)
		}
		memberRc.set(mep.Secret, nil)

		agent := env.NewAgent("heldhook", auth.AgentScopes...)
		env.Must(201, env.Do("POST", "/api/v1/inboxes/"+agent.InboxID+"/sender-rules", agent.Token,
			map[string]any{"kind": "block", "pattern": "@blocked.example"}))
		sendMail(t, env, "mallory@blocked.example", agent.Address, "Secret subject", "quarantine me")
		var thread string
		eventually(t, "the held message", func() bool {
			data := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+agent.InboxID+"/threads?folder=quarantine", agent.Token, nil)).JSON()["data"].([]any)
			if len(data) == 1 {
				thread = data[0].(map[string]any)["id"].(string)
			}
			return thread != ""
		})
		env.Must(200, env.Do("PATCH", "/api/v1/threads/"+thread, agent.Token, map[string]any{"add_labels": []string{"suspect"}}))

		kd := keyRc.waitType("thread.updated").Body["data"].(map[string]any)
		if _, ok := kd["subject"]; ok {
			t.Errorf("key-created endpoint got the subject of held mail: %v", kd)
		}
		if kd["thread_id"] != thread || kd["folder"] != "quarantine" || fmt.Sprint(kd["changes"]) != "[labels]" {
			t.Errorf("redacted thread.updated: %v", kd)
		}
		if md := memberRc.waitType("thread.updated").Body["data"].(map[string]any); md["subject"] != "Secret subject" {
			t.Errorf("member-created endpoint: %v", md)
		}

		env.Must(200, env.Do("POST", "/api/v1/threads/"+thread+"/release", env.Creds.OrgKey, nil))
		eventually(t, "thread.updated of the release", func() bool { return len(keyRc.all()) == 2 })
		if rd := keyRc.all()[1].Body["data"].(map[string]any); rd["folder"] != "inbox" || rd["subject"] != "Secret subject" {
			t.Errorf("thread.updated after release: %v", rd)
		}
	})
}
