package outbound_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/delivery/deliverytest"
	"github.com/agentsvc/agentsvc/internal/events"
)

// world is a server with a loopback DNS zone and an SMTP sink that the zone
// names as the MX of example.test.
type world struct {
	env  *apptest.Env
	zone *deliverytest.Zone
	dns  string
	sink *deliverytest.Sink
}

// direct makes the server deliver outside mail by MX lookup to the sink.
func newWorld(t *testing.T, direct bool, opts ...apptest.Option) func(t *testing.T, fn func(t *testing.T, w *world)) {
	return func(t *testing.T, fn func(t *testing.T, w *world)) {
		zone := deliverytest.NewZone()
		zone.MX("example.test", 10, "mx.example.test")
		zone.A("mx.example.test", "127.0.0.1")
		dnsAddr := deliverytest.StartDNS(t, zone)
		sink := deliverytest.StartSink(t)
		all := append([]apptest.Option{func(c *app.Config) {
			c.DNSServer = dnsAddr
			c.SMTPDirect = direct
			c.SMTPDeliveryPort = sink.Port()
			c.SMTPRetryBackoff = 100 * time.Millisecond
		}}, opts...)
		apptest.Each(t, func(t *testing.T, env *apptest.Env) {
			sink.Reset()
			fn(t, &world{env: env, zone: zone, dns: dnsAddr, sink: sink})
		}, all...)
	}
}

func (w *world) agent(name string) apptest.Agent {
	return w.env.NewAgent(name, auth.EmailRead, auth.EmailSend)
}

func (w *world) send(a apptest.Agent, body map[string]any) map[string]any {
	w.env.T.Helper()
	return w.env.Must(202, w.env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, body)).JSON()
}

// waitMessage waits for a message in an inbox matching subject.
func (w *world) waitMessage(a apptest.Agent, direction, subject string) map[string]any {
	w.env.T.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		r := w.env.Must(200, w.env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/messages?direction="+direction, a.Token, nil))
		for _, m := range r.JSON()["data"].([]any) {
			mm := m.(map[string]any)
			if mm["subject"] == subject {
				return mm
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	w.env.T.Fatalf("no %s message %q in %s", direction, subject, a.Address)
	return nil
}

// waitStatus waits until every recipient of a message has left queued and
// returns the recipients by address.
func (w *world) waitStatus(a apptest.Agent, msgID string, want map[string]string) map[string]map[string]any {
	w.env.T.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var got map[string]map[string]any
	for time.Now().Before(deadline) {
		r := w.env.Must(200, w.env.Do("GET", "/api/v1/messages/"+msgID+"/deliveries", a.Token, nil))
		got = map[string]map[string]any{}
		done := true
		for _, d := range r.JSON()["data"].([]any) {
			dd := d.(map[string]any)
			got[dd["address"].(string)] = dd
		}
		for addr, st := range want {
			if got[addr] == nil || got[addr]["status"] != st {
				done = false
			}
		}
		if done {
			return got
		}
		time.Sleep(30 * time.Millisecond)
	}
	w.env.T.Fatalf("deliveries of %s: %v, want %v", msgID, got, want)
	return nil
}

// eventTypes lists the types of the organization's events about a message.
func (w *world) eventTypes(msgID string) []string {
	w.env.T.Helper()
	evs, err := events.ListAfter(context.Background(), w.env.App.DB, w.env.Creds.OrganizationID, "", 0, 10000)
	if err != nil {
		w.env.T.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if e.Data["message_id"] == msgID {
			out = append(out, e.Type)
		}
	}
	return out
}

func (w *world) queued() int {
	w.env.T.Helper()
	var n int
	if err := w.env.App.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM outbound_queue`).Scan(&n); err != nil {
		w.env.T.Fatal(err)
	}
	return n
}

func (w *world) upload(a apptest.Agent, name string, data []byte) string {
	w.env.T.Helper()
	r := w.env.Must(201, w.env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/uploads", a.Token,
		map[string]any{"filename": name, "content_base64": base64.StdEncoding.EncodeToString(data)}))
	return r.JSON()["id"].(string)
}

func parseRaw(t *testing.T, raw []byte) *mail.Message {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("parse sent message: %v\n%s", err, raw)
	}
	return m
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func headerNames(raw []byte) []string {
	head, _, _ := strings.Cut(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n\n")
	var out []string
	for _, line := range strings.Split(head, "\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		name, _, _ := strings.Cut(line, ":")
		out = append(out, strings.ToLower(name))
	}
	return out
}

func sprint(v any) string { return fmt.Sprint(v) }

// publishDKIM puts the organization's default DKIM key into the zone, as
// an operator publishes it, so that receivers (including the service's own
// inbound pipeline) can verify signatures.
func (w *world) publishDKIM() {
	w.env.T.Helper()
	r := w.env.Must(200, w.env.Do("GET", "/api/v1/domains", w.env.Creds.OrgKey, nil))
	for _, d := range r.JSON()["data"].([]any) {
		for _, rec := range d.(map[string]any)["records"].([]any) {
			rr := rec.(map[string]any)
			if rr["purpose"] == "dkim" {
				w.zone.ReplaceTXT(rr["name"].(string), rr["value"].(string))
			}
		}
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// orgEvents lists the organization's events of one type.
func (w *world) orgEvents(typ string) []events.Event {
	w.env.T.Helper()
	evs, err := events.ListAfter(context.Background(), w.env.App.DB, w.env.Creds.OrganizationID, "", 0, 10000)
	if err != nil {
		w.env.T.Fatal(err)
	}
	var out []events.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}
