package outbound_test

import (
	"bytes"
	"context"
	"fmt"

	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
)

// Drafts hold their uploads; sending a draft removes it atomically, also
// on a deduplicated retry; forwards carry the stored attachments and quote
// the original (dev capture, as without a relay).
func TestDraftsUploadsForward(t *testing.T) {
	newWorld(t, false)(t, func(t *testing.T, w *world) {
		env := w.env
		a, b := w.agent("drafter"), w.agent("reader")
		w.publishDKIM()
		up := w.upload(a, "../../notes.txt", []byte("line one\nline two\n"))
		d := env.Must(201, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/drafts", a.Token, map[string]any{
			"to": []string{b.Address}, "subject": "Notes", "text": "Attached.", "attachment_ids": []string{up}})).JSON()
		if d["attachments"].([]any)[0].(map[string]any)["filename"] != "notes.txt" {
			t.Errorf("draft %v", d)
		}
		// Held by the draft: not deletable, not usable elsewhere.
		if r := env.Do("DELETE", "/api/v1/uploads/"+up, a.Token, nil); r.Status != 409 {
			t.Errorf("delete held upload: %d %s", r.Status, r.Body)
		}
		list := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/drafts", a.Token, nil)).JSON()
		if len(list["data"].([]any)) != 1 {
			t.Fatalf("drafts %v", list)
		}
		// Another agent sees nothing of it.
		if r := env.Do("GET", "/api/v1/drafts/"+d["id"].(string), b.Token, nil); r.Status != 404 {
			t.Errorf("foreign draft: %d", r.Status)
		}
		body := map[string]any{"draft_id": d["id"], "idempotency_key": "send-notes"}
		sent := w.send(a, body)
		if r := env.Do("GET", "/api/v1/drafts/"+d["id"].(string), a.Token, nil); r.Status != 404 {
			t.Errorf("draft after send: %d", r.Status)
		}
		again := env.Must(202, env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, body))
		if again.JSON()["id"] != sent["id"] {
			t.Errorf("retry gave %v, first %v", again.JSON()["id"], sent["id"])
		}
		got := w.waitMessage(b, "inbound", "Notes")
		atts := got["attachments"].([]any)
		if len(atts) != 1 || atts[0].(map[string]any)["filename"] != "notes.txt" {
			t.Fatalf("attachments %v", atts)
		}

		// Forward it outside: captured in dev mode, attachment and quote included.
		fw := env.Must(202, env.Do("POST", "/api/v1/messages/"+got["id"].(string)+"/forward", b.Token,
			map[string]any{"to": []string{"carol@example.test"}, "text": "FYI"})).JSON()
		w.waitStatus(b, fw["id"].(string), map[string]string{"carol@example.test": "delivered"})
		caps := env.Must(200, env.Do("GET", "/api/v1/outbound-captures", env.Creds.OrgKey, nil)).JSON()["data"].([]any)
		if len(caps) != 1 {
			t.Fatalf("captures %v", caps)
		}
		c := caps[0].(map[string]any)
		raw := c["raw"].(string)
		if c["subject"] != "Fwd: Notes" || !strings.Contains(raw, "notes.txt") || !strings.Contains(raw, "Forwarded message") ||
			!strings.Contains(raw, "multipart/mixed") {
			t.Errorf("forward:\n%s", raw)
		}
		if len(w.sink.Received()) != 0 {
			t.Error("dev capture sent mail outside")
		}
	})
}

// Bad input is a clear 4xx and queues nothing; header injection cannot
// add a header.
func TestBadInputQueuesNothing(t *testing.T) {
	newWorld(t, false)(t, func(t *testing.T, w *world) {
		env := w.env
		a, other := w.agent("careful"), w.agent("other")
		own := w.upload(a, "a.txt", []byte("a"))
		foreign := w.upload(other, "b.txt", []byte("b"))
		expired := w.upload(a, "old.txt", []byte("old"))
		if _, err := env.App.DB.ExecContext(context.Background(), `UPDATE uploads SET expires_at = 1 WHERE id = $1`, expired); err != nil {
			t.Fatal(err)
		}
		otherDraft := env.Must(201, env.Do("POST", "/api/v1/inboxes/"+other.InboxID+"/drafts", other.Token, map[string]any{"subject": "x"})).JSON()["id"]
		eleven := make([]string, 11)
		for i := range eleven {
			eleven[i] = own
		}
		base := func(extra map[string]any) map[string]any {
			m := map[string]any{"to": []string{"bob@example.test"}, "subject": "Hi", "text": "x"}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		before := w.queued()
		for _, tc := range []struct {
			name   string
			body   map[string]any
			status int
		}{
			{"invalid address", base(map[string]any{"to": []string{"not an address"}}), 400},
			{"no domain dot", base(map[string]any{"to": []string{"bob@localhost"}}), 400},
			{"subject injection", base(map[string]any{"subject": "Hi\r\nBcc: victim@example.test"}), 400},
			{"name injection", base(map[string]any{"to": []string{"\"Eve\r\nBcc: victim@example.test\" <eve@example.test>"}}), 400},
			{"address injection", base(map[string]any{"to": []string{"eve@example.test>\r\nBcc: victim@example.test"}}), 400},
			{"no body", base(map[string]any{"text": ""}), 400},
			{"too many attachments", base(map[string]any{"attachment_ids": eleven}), 400},
			{"foreign upload", base(map[string]any{"attachment_ids": []string{foreign}}), 404},
			{"expired upload", base(map[string]any{"attachment_ids": []string{expired}}), 404},
			{"draft of another inbox", base(map[string]any{"draft_id": otherDraft}), 404},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, tc.body)
				if r.Status != tc.status || r.ErrorCode() == "" {
					t.Errorf("%d %s, want %d with an error code", r.Status, r.Body, tc.status)
				}
			})
		}
		// Too large: 10 MB + 1 byte is refused at upload.
		big := bytes.Repeat([]byte("x"), 10<<20+1)
		if r := env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/uploads", a.Token,
			map[string]any{"filename": "big.bin", "content_base64": b64(big)}); r.Status != 413 {
			t.Errorf("big upload: %d %.200s", r.Status, r.Body)
		}
		if n := w.queued(); n != before {
			t.Errorf("queue grew from %d to %d", before, n)
		}

		// A hostile display name is encoded, never a header of its own.
		sent := w.send(a, map[string]any{"to": []string{`"Eve: Bcc victim@example.test, x" <eve@example.test>`}, "subject": "Bcc: nobody", "text": "x"})
		w.waitStatus(a, sent["id"].(string), map[string]string{"eve@example.test": "delivered"})
		caps := env.Must(200, env.Do("GET", "/api/v1/outbound-captures", env.Creds.OrgKey, nil)).JSON()["data"].([]any)
		raw := caps[0].(map[string]any)["raw"].(string)
		if contains(headerNames([]byte(raw)), "bcc") {
			t.Errorf("a Bcc header appeared:\n%s", raw)
		}
	})
}

// Delivery events: 250 delivered, 4xx delayed then failed after the retry
// window, 5xx bounced; a DSN and an ARF report arriving over SMTP at the
// return path bounce and complain.
func TestDeliveryEvents(t *testing.T) {
	newWorld(t, true, func(c *app.Config) { c.SMTPRetryFor = 700 * time.Millisecond })(t, func(t *testing.T, w *world) {
		env := w.env
		a := w.agent("events")
		w.sink.Reject(func(rcpt string) error {
			switch {
			case strings.HasPrefix(rcpt, "slow@"):
				return smtpserver.ErrOverQuota
			case strings.HasPrefix(rcpt, "gone@"):
				return smtpserver.ErrUnknownRecipient
			}
			return nil
		})
		sent := w.send(a, map[string]any{"to": []string{"ok@example.test", "slow@example.test", "gone@example.test"}, "subject": "Status", "text": "x"})
		id := sent["id"].(string)
		st := w.waitStatus(a, id, map[string]string{"ok@example.test": "delivered", "gone@example.test": "bounced", "slow@example.test": "failed"})
		if st["gone@example.test"]["smtp_code"].(float64) != 550 {
			t.Errorf("bounce %v", st["gone@example.test"])
		}
		ev := w.eventTypes(id)
		for _, want := range []string{"message.sent", "message.delivered", "message.delivery_delayed", "message.bounced", "message.failed"} {
			if !contains(ev, want) {
				t.Errorf("no %s in %v", want, ev)
			}
		}

		// Reports for the delivered recipient, sent to its return path.
		got := w.sink.Received()
		var returnPath string
		for _, g := range got {
			if g.Recipients[0] == "ok@example.test" {
				returnPath = g.MailFrom
			}
		}
		if returnPath == "" {
			t.Fatal("no delivery to ok@example.test")
		}
		report(t, env.SMTPAddr(), returnPath, arf)
		report(t, env.SMTPAddr(), returnPath, dsn)
		st = w.waitStatus(a, id, map[string]string{"ok@example.test": "bounced"})
		if !strings.Contains(sprint(st["ok@example.test"]["detail"]), "5.1.1") {
			t.Errorf("dsn detail %v", st["ok@example.test"])
		}
		if ev := w.eventTypes(id); !contains(ev, "message.complained") {
			t.Errorf("no complaint in %v", ev)
		}
		// An unknown token is refused like an unknown mailbox.
		if err := apptest.SendMail(env.SMTPAddr(), "mailer-daemon@example.test",
			[]string{"bounces+dlv_00000000000000000000000000@agentsvc.localhost"}, "Subject: x\r\n\r\nx\r\n"); err == nil ||
			!strings.Contains(err.Error(), "550") {
			t.Errorf("unknown return path: %v", err)
		}
	})
}

const dsn = "From: MAILER-DAEMON@example.test\r\nTo: {{rp}}\r\nSubject: Undelivered Mail\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n" +
	"--b1\r\nContent-Type: text/plain\r\n\r\nThe mailbox does not exist.\r\n" +
	"--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\n" +
	"Final-Recipient: rfc822; ok@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user unknown\r\n\r\n" +
	"--b1--\r\n"

const arf = "From: fbl@example.test\r\nTo: {{rp}}\r\nSubject: FW: complaint\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: multipart/report; report-type=feedback-report; boundary=\"b2\"\r\n\r\n" +
	"--b2\r\nContent-Type: text/plain\r\n\r\nThis is an abuse report.\r\n" +
	"--b2\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\nUser-Agent: ExampleFBL/1.0\r\nVersion: 1\r\n\r\n" +
	"--b2--\r\n"

func report(t *testing.T, addr, rp, tmpl string) {
	t.Helper()
	if err := apptest.SendMail(addr, "", []string{rp}, strings.ReplaceAll(tmpl, "{{rp}}", rp)); err != nil {
		t.Fatalf("send report: %v", err)
	}
}

// Custom domains: records to publish, verification through DNS, the event.
func TestDomains(t *testing.T) {
	newWorld(t, false)(t, func(t *testing.T, w *world) {
		env := w.env
		key := env.Creds.OrgKey
		// One zone serves both dialects' runs: a name per run.
		name := "custom-" + t.Name()[strings.LastIndex(t.Name(), "/")+1:] + ".test"
		d := env.Must(201, env.Do("POST", "/api/v1/domains", key, map[string]any{"name": strings.ToUpper(name)})).JSON()
		if d["name"] != name || d["verified"] != false || len(d["records"].([]any)) != 4 {
			t.Fatalf("domain %v", d)
		}
		id := d["id"].(string)
		if r := env.Do("POST", "/api/v1/domains", key, map[string]any{"name": name}); r.Status != 409 {
			t.Errorf("twice: %d", r.Status)
		}
		if r := env.Do("POST", "/api/v1/domains", key, map[string]any{"name": "not a domain"}); r.Status != 400 {
			t.Errorf("bad name: %d", r.Status)
		}
		v := env.Must(200, env.Do("POST", "/api/v1/domains/"+id+"/verify", key, nil)).JSON()
		if v["verified"] != false || !strings.Contains(sprint(v["records"]), "missing") {
			t.Errorf("unpublished verified: %v", v)
		}
		for _, rec := range d["records"].([]any) {
			r := rec.(map[string]any)
			if r["type"] == "MX" {
				w.zone.MX(r["name"].(string), 10, strings.Fields(r["value"].(string))[1])
			} else {
				w.zone.ReplaceTXT(r["name"].(string), r["value"].(string))
			}
		}
		v = env.Must(200, env.Do("POST", "/api/v1/domains/"+id+"/verify", key, nil)).JSON()
		if v["verified"] != true {
			t.Fatalf("published, not verified: %v", v)
		}
		evs := w.orgEvents("domain.verified")
		if len(evs) != 1 {
			t.Errorf("domain.verified events: %d", len(evs))
		}
		env.Must(200, env.Do("POST", "/api/v1/domains/"+id+"/verify", key, nil))
		if n := len(w.orgEvents("domain.verified")); n != 1 {
			t.Errorf("verified twice: %d events", n)
		}
		env.Must(204, env.Do("DELETE", "/api/v1/domains/"+id, key, nil))
	})
}

var confirmLink = regexp.MustCompile(`https?://\S+/api/v1/verified-recipients/confirm\?code=[A-Za-z0-9_=\-]+`)

// The sandbox plan: verified recipients only (with the confirmation mail),
// no attachments, 5 sends a day; each refusal is a 402 naming the quota,
// with nothing queued.
func TestSandboxPlan(t *testing.T) {
	newWorld(t, false, func(c *app.Config) { c.DevPlan = "sandbox" })(t, func(t *testing.T, w *world) {
		env := w.env
		a := w.agent("sandboxed")
		body := map[string]any{"to": []string{"dave@example.test"}, "subject": "Hi", "text": "x"}
		before := w.queued()
		r := env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, body)
		if r.Status != 402 || !strings.Contains(string(r.Body), "verified_recipients") {
			t.Fatalf("unverified: %d %s", r.Status, r.Body)
		}
		if w.queued() != before {
			t.Error("refused send was queued")
		}
		env.Must(201, env.Do("POST", "/api/v1/verified-recipients", env.Creds.OrgKey, map[string]any{"address": "Dave@Example.test"}))
		var link string
		deadline := time.Now().Add(10 * time.Second)
		for link == "" && time.Now().Before(deadline) {
			caps := env.Must(200, env.Do("GET", "/api/v1/outbound-captures", env.Creds.OrgKey, nil)).JSON()["data"].([]any)
			if len(caps) > 0 {
				link = confirmLink.FindString(strings.ReplaceAll(strings.ReplaceAll(caps[0].(map[string]any)["raw"].(string), "=\r\n", ""), "=3D", "="))
			}
			time.Sleep(30 * time.Millisecond)
		}
		if link == "" {
			t.Fatal("no confirmation link captured")
		}
		req := strings.TrimPrefix(link, env.BaseURL)
		v := env.Must(200, env.Do("GET", req, "", nil)).JSON()
		if v["verified"] != true || v["address"] != "dave@example.test" {
			t.Fatalf("confirm: %v", v)
		}
		up := w.upload(a, "a.txt", []byte("a"))
		withAtt := map[string]any{"to": []string{"dave@example.test"}, "subject": "Hi", "text": "x", "attachment_ids": []string{up}}
		if r := env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, withAtt); r.Status != 402 || !strings.Contains(string(r.Body), "outbound_attachments") {
			t.Errorf("attachment on sandbox: %d %s", r.Status, r.Body)
		}
		for i := range 5 {
			body["subject"] = fmt.Sprintf("Hi %d", i)
			w.send(a, body)
		}
		body["subject"] = "one too many"
		queued := w.queued()
		if r := env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, body); r.Status != 402 || !strings.Contains(string(r.Body), "sends_per_day") {
			t.Errorf("sixth send: %d %s", r.Status, r.Body)
		}
		if w.queued() != queued {
			t.Error("refused send was queued")
		}
	})
}
