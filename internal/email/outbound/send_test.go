package outbound_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"mime"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
)

// A message sent through the API reaches a real SMTP server over TCP (found
// by MX lookup), over STARTTLS, DKIM-signed with a signature go-msgauth
// verifies against the key published in DNS; the thread carries its labels.
func TestSendArrivesSignedAtMX(t *testing.T) {
	newWorld(t, true)(t, func(t *testing.T, w *world) {
		env := w.env
		a := w.agent("sender")
		sent := w.send(a, map[string]any{
			"to": []string{"Bob Müller <bob@example.test>"}, "subject": "Grüße and a plan",
			"html": "<p>Hello <b>Bob</b>, see you at 10.</p>", "labels": []string{"crm"}})
		if sent["status"] != "queued" || sent["id"] == nil || sent["thread_id"] == nil {
			t.Fatalf("send answer %v", sent)
		}
		got := w.sink.Wait(t, 1, 15*time.Second)[0]
		if !got.TLS {
			t.Error("delivery did not use STARTTLS")
		}
		if !strings.HasPrefix(got.MailFrom, "bounces+dlv_") || !strings.HasSuffix(got.MailFrom, "@agentsvc.localhost") {
			t.Errorf("return path %q", got.MailFrom)
		}
		m := parseRaw(t, got.Raw)
		dec := mime.WordDecoder{}
		subj, _ := dec.DecodeHeader(m.Header.Get("Subject"))
		if subj != "Grüße and a plan" {
			t.Errorf("subject %q", subj)
		}
		if !strings.HasSuffix(m.Header.Get("Message-Id"), "@agentsvc.localhost>") || m.Header.Get("Date") == "" {
			t.Errorf("message-id %q date %q", m.Header.Get("Message-Id"), m.Header.Get("Date"))
		}
		if !strings.Contains(m.Header.Get("Content-Type"), "multipart/alternative") {
			t.Errorf("content type %q: html-only should become text+html", m.Header.Get("Content-Type"))
		}
		if !bytes.Contains(got.Raw, []byte("Hello Bob")) && !bytes.Contains(got.Raw, []byte("Hello *Bob*")) {
			t.Errorf("no text part derived from the html:\n%s", got.Raw)
		}

		w.publishDKIM()
		res := senderauth.NewResolver(w.dns)
		verifs, err := dkim.VerifyWithOptions(bytes.NewReader(got.Raw), &dkim.VerifyOptions{LookupTXT: func(d string) ([]string, error) {
			return res.LookupTXT(context.Background(), d)
		}})
		if err != nil || len(verifs) != 1 || verifs[0].Err != nil || verifs[0].Domain != "agentsvc.localhost" {
			t.Fatalf("dkim: %v %+v %v", err, verifs, verifs[0].Err)
		}

		msgID := sent["id"].(string)
		w.waitStatus(a, msgID, map[string]string{"bob@example.test": "delivered"})
		if ev := w.eventTypes(msgID); !contains(ev, "message.sent") || !contains(ev, "message.delivered") {
			t.Errorf("events %v", ev)
		}
		th := env.Must(200, env.Do("GET", "/api/v1/threads/"+sent["thread_id"].(string), a.Token, nil)).JSON()
		if labels := sprint(th["labels"]); !strings.Contains(labels, "crm") {
			t.Errorf("thread labels %v", labels)
		}
	})
}

// Mail to another inbox of the service goes through the inbound pipeline;
// the reply comes back into the sender's thread.
func TestSendLocalAndReplyThreads(t *testing.T) {
	newWorld(t, false)(t, func(t *testing.T, w *world) {
		env := w.env
		a, b := w.agent("alice"), w.agent("bob")
		w.publishDKIM()
		sent := w.send(a, map[string]any{"to": []string{b.Address}, "subject": "Lunch?", "text": "Noon at the usual place?"})
		in := w.waitMessage(b, "inbound", "Lunch?")
		if in["screening"].(map[string]any)["verdict"] != "clean" {
			t.Errorf("screening %v", in["screening"])
		}
		w.waitStatus(a, sent["id"].(string), map[string]string{b.Address: "delivered"})

		reply := env.Must(202, env.Do("POST", "/api/v1/messages/"+in["id"].(string)+"/reply", b.Token,
			map[string]any{"text": "Yes, see you.", "idempotency_key": "r1"})).JSON()
		back := w.waitMessage(a, "inbound", "Re: Lunch?")
		if back["thread_id"] != sent["thread_id"] {
			t.Errorf("reply in thread %v, sent in %v", back["thread_id"], sent["thread_id"])
		}
		full := env.Must(200, env.Do("GET", "/api/v1/messages/"+back["id"].(string), a.Token, nil)).JSON()
		if full["in_reply_to"] == nil || full["in_reply_to"] == "" {
			t.Errorf("no In-Reply-To: %v", full)
		}
		// The same reply again is the same reply.
		again := env.Do("POST", "/api/v1/messages/"+in["id"].(string)+"/reply", b.Token, map[string]any{"text": "Yes, see you.", "idempotency_key": "r1"})
		env.Must(202, again)
		if again.JSON()["id"] != reply["id"] || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("replay %s %v", again.Body, again.Header)
		}
		if r := env.Do("POST", "/api/v1/messages/"+in["id"].(string)+"/reply", b.Token, map[string]any{"text": "No.", "idempotency_key": "r1"}); r.Status != 409 || r.ErrorCode() != "idempotency_conflict" {
			t.Errorf("other body, same key: %d %s", r.Status, r.Body)
		}
	})
}

// TestLocalMailDKIMWithoutDNS checks that mail between the service's own
// inboxes passes DKIM against the key that signed it when DNS does not
// publish that key (dev mode's agentsvc.localhost: every such message was
// flagged dkim_fail), and that a signature for the same domain and selector
// made with another key still fails.
func TestLocalMailDKIMWithoutDNS(t *testing.T) {
	newWorld(t, false)(t, func(t *testing.T, w *world) {
		env := w.env
		a, b := w.agent("alice"), w.agent("bob")
		w.send(a, map[string]any{"to": []string{b.Address}, "subject": "Unpublished key", "text": "Hello from next door."})
		in := w.waitMessage(b, "inbound", "Unpublished key")
		full := env.Must(200, env.Do("GET", "/api/v1/messages/"+in["id"].(string), b.Token, nil)).JSON()
		if got := full["authentication"].(map[string]any)["dkim"]; got != "pass" || in["screening"].(map[string]any)["verdict"] != "clean" {
			t.Errorf("local mail: dkim %v, screening %v", got, in["screening"])
		}

		// The selector the service signs with, from its DNS records.
		var selector, domain string
		for _, d := range env.Must(200, env.Do("GET", "/api/v1/domains", env.Creds.OrgKey, nil)).JSON()["data"].([]any) {
			for _, rec := range d.(map[string]any)["records"].([]any) {
				if r := rec.(map[string]any); r["purpose"] == "dkim" {
					selector, domain, _ = strings.Cut(r["name"].(string), "._domainkey.")
				}
			}
		}
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		msg := "From: " + a.Address + "\r\nTo: " + b.Address + "\r\nSubject: Forged signature\r\nMessage-ID: <forged@" + domain + ">\r\n\r\nTrust me.\r\n"
		var signed bytes.Buffer
		if err := dkim.Sign(&signed, strings.NewReader(msg), &dkim.SignOptions{Domain: domain, Selector: selector, Signer: key}); err != nil {
			t.Fatal(err)
		}
		if err := apptest.SendMail(env.SMTPAddr(), "forger@elsewhere.test", []string{b.Address}, signed.String()); err != nil {
			t.Fatal(err)
		}
		forged := w.waitMessage(b, "inbound", "Forged signature")
		full = env.Must(200, env.Do("GET", "/api/v1/messages/"+forged["id"].(string), b.Token, nil)).JSON()
		if got := full["authentication"].(map[string]any)["dkim"]; got != "fail" {
			t.Errorf("signature made with another key: dkim %v, want fail", got)
		}
	})
}
