package inbound_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/dnstest"
	"github.com/agentsvc/agentsvc/internal/ids"
)

// TestAllowRuleNeedsAuthentication runs the server against a real DNS
// server on loopback: an allow rule skips content screening only for mail
// whose From is not shown forged by SPF (for an aligned envelope domain),
// DKIM or DMARC. Forged mail from an allowed domain is screened like any
// other and says that the rule was ignored.
func TestAllowRuleNeedsAuthentication(t *testing.T) {
	zone := dnstest.NewZone()
	// Publishes that no host sends its mail, and asks receivers to reject.
	zone.TXT("trusted.example", "v=spf1 -all")
	zone.TXT("_dmarc.trusted.example", "v=DMARC1; p=reject")
	// Authorizes the test client (127.0.0.1).
	zone.TXT("good.example", "v=spf1 ip4:127.0.0.1 -all")
	zone.TXT("_dmarc.good.example", "v=DMARC1; p=reject")
	// Softfail, no DMARC record.
	zone.TXT("soft.example", "v=spf1 ~all")
	// An envelope domain that fails SPF but has nothing to do with From.
	zone.TXT("esp.example", "v=spf1 -all")
	addr := dnstest.Start(t, zone)
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("allowauth", auth.EmailRead, auth.EmailSend)
		rules := "/api/v1/inboxes/" + a.InboxID + "/sender-rules"
		for _, p := range []string{"@trusted.example", "@good.example", "@soft.example", "@nodmarc.example"} {
			env.Must(201, env.Do("POST", rules, a.Token, map[string]any{"kind": "allow", "pattern": p}))
		}
		for _, c := range []struct {
			name, mailFrom, from string
			headers              []string
			honoured             bool
			reasons              []string
		}{
			{name: "forged From, SPF and DMARC fail", mailFrom: "ceo@trusted.example", from: "ceo@trusted.example",
				reasons: []string{"spf_fail", "dmarc_fail", "prompt_injection"}},
			{name: "forged From, other envelope domain, DMARC fails", mailFrom: "bounce@esp.example", from: "cfo@trusted.example",
				reasons: []string{"dmarc_fail", "prompt_injection"}},
			{name: "SPF softfail for the From domain", mailFrom: "x@soft.example", from: "x@soft.example",
				reasons: []string{"spf_fail", "prompt_injection"}},
			{name: "second From field hides the forged one", mailFrom: "x@other.example", from: "boss@trusted.example",
				headers: []string{"From: x@other.example"}, reasons: []string{"dmarc_fail", "prompt_injection"}},
			{name: "authenticated sender", mailFrom: "ops@good.example", from: "ops@good.example", honoured: true},
			{name: "unrelated envelope domain fails SPF", mailFrom: "bounce@esp.example", from: "news@nodmarc.example", honoured: true},
		} {
			t.Run(c.name, func(t *testing.T) {
				since := time.Now()
				mustSend(t, env, c.mailFrom, []string{a.Address}, mail(c.from, a.Address, "Notes", injection, c.headers...))
				m := waitStoredFrom(t, env, a, c.from, since)
				s := m["screening"].(map[string]any)
				reasons, findings := fmt.Sprint(s["reasons"]), fmt.Sprint(s["findings"])
				if c.honoured {
					if s["verdict"] != "clean" || !strings.Contains(findings, "sender_allowed") || strings.Contains(findings, "sender_allow_ignored") {
						t.Errorf("allow rule not honoured: %v (authentication %v)", s, m["authentication"])
					}
					return
				}
				if s["verdict"] == "clean" || strings.Contains(findings, "sender_allowed") || !strings.Contains(findings, "sender_allow_ignored") {
					t.Errorf("allow rule honoured for mail failing authentication: %v (authentication %v)", s, m["authentication"])
				}
				for _, r := range c.reasons {
					if !strings.Contains(reasons, r) {
						t.Errorf("reasons %s lack %s", reasons, r)
					}
				}
			})
		}
	}, func(c *app.Config) { c.DNSServer = addr })
}

// TestSenderRulesMatchEverySpelling checks that a sender rule cannot be
// bypassed by spelling the From domain another way: an IDN as U-labels or
// A-labels, in any case, with a trailing dot, or with RFC 5322 comments in
// the address. Rules are kept in one form, so two spellings of one pattern
// are one rule, and a rule stored in Unicode form before that still matches.
func TestSenderRulesMatchEverySpelling(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("spellings", auth.EmailRead, auth.EmailSend)
		rules := "/api/v1/inboxes/" + a.InboxID + "/sender-rules"
		idn := env.Must(201, env.Do("POST", rules, a.Token, map[string]any{"kind": "block", "pattern": "@Bücher.example"})).JSON()
		if idn["pattern"] != "@xn--bcher-kva.example" {
			t.Errorf("IDN pattern stored as %v, want its A-label form", idn["pattern"])
		}
		env.Must(201, env.Do("POST", rules, a.Token, map[string]any{"kind": "block", "pattern": "@evil.example"}))
		// A rule written by an earlier version, which kept U-labels.
		if _, err := env.App.DB.ExecContext(context.Background(), `INSERT INTO sender_rules (id, org_id, inbox_id, kind, pattern, created_at) VALUES ($1, $2, $3, 'block', '@münchen.example', 0)`,
			ids.New("rul"), env.Creds.OrganizationID, a.InboxID); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"@xn--bcher-kva.example", "@BÜCHER.example", "@evil.example.", "@EVIL.example", "@xn--mnchen-3ya.example"} {
			if r := env.Do("POST", rules, a.Token, map[string]any{"kind": "allow", "pattern": p}); r.Status != 409 {
				t.Errorf("pattern %s beside an equal rule: %d %s", p, r.Status, r.Body)
			}
		}

		sends := []struct {
			subject, from string
			blocked       bool
		}{
			{"a-label", "p@xn--bcher-kva.example", true},
			{"u-label upper case", "q@BÜCHER.example", true},
			{"trailing dot", "x@evil.example.", true},
			{"comment in local part", "x(comment)@evil.example", true},
			{"comments everywhere", "Mallory (the boss) <m(c)@(c) evil.example>", true},
			{"legacy unicode rule", "r@xn--mnchen-3ya.example", true},
			{"other domain", "ok@evil.example.org", false},
		}
		for _, c := range sends {
			mustSend(t, env, "bounce@sender.example", []string{a.Address}, mail(c.from, a.Address, c.subject, "Hello"))
		}
		by := storedBySubject(t, env, a, len(sends))
		for _, c := range sends {
			m := by[c.subject]
			if m == nil {
				t.Errorf("%s: not stored", c.subject)
				continue
			}
			s := m["screening"].(map[string]any)
			blocked := fmt.Sprint(s["reasons"]) == "[sender_blocked]" && m["quarantined"] == true
			if blocked != c.blocked {
				t.Errorf("%s (From %s, read as %v): blocked %v, want %v (%v)", c.subject, c.from, m["from"], blocked, c.blocked, s)
			}
		}
	})
}

// TestBlockRuleMatchesEveryFromAddress: RFC 5322 lets From list several
// authors, and mail arrives with several From fields too; a blocked sender
// must not get through by putting another address first. An allow rule
// for one of the addresses does not lift the block either.
func TestBlockRuleMatchesEveryFromAddress(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("blockall", auth.EmailRead, auth.EmailSend)
		rules := "/api/v1/inboxes/" + a.InboxID + "/sender-rules"
		env.Must(201, env.Do("POST", rules, a.Token, map[string]any{"kind": "block", "pattern": "@blocked.example"}))
		env.Must(201, env.Do("POST", rules, a.Token, map[string]any{"kind": "block", "pattern": "boss@bad.example"}))
		env.Must(201, env.Do("POST", rules, a.Token, map[string]any{"kind": "allow", "pattern": "@trusted.example"}))
		sends := []struct {
			subject, from string
			headers       []string
			blocked       bool
		}{
			{subject: "blocked first", from: "x@blocked.example, y@ok.example", blocked: true},
			{subject: "blocked second", from: "y@ok.example, x@mail.blocked.example", blocked: true},
			{subject: "blocked third with names", from: `"Y" <y@ok.example>, Z <z@ok.example>, "Boss" <BOSS@bad.example>`, blocked: true},
			{subject: "group", from: "team: y@ok.example, x@blocked.example;", blocked: true},
			{subject: "second From field", from: "y@ok.example", headers: []string{"From: x@blocked.example"}, blocked: true},
			{subject: "first of two From fields", from: "x@blocked.example", headers: []string{"From: y@ok.example"}, blocked: true},
			{subject: "allowed first", from: "friend@trusted.example, x@blocked.example", blocked: true},
			{subject: "none blocked", from: "y@ok.example, z@other.example", blocked: false},
			{subject: "blocked address in a display name only", from: `"x@blocked.example" <y@ok.example>`, blocked: false},
		}
		for _, c := range sends {
			mustSend(t, env, "bounce@sender.example", []string{a.Address}, mail(c.from, a.Address, c.subject, "Hello", c.headers...))
		}
		by := storedBySubject(t, env, a, len(sends))
		for _, c := range sends {
			m := by[c.subject]
			if m == nil {
				t.Errorf("%s: not stored", c.subject)
				continue
			}
			s := m["screening"].(map[string]any)
			blocked := fmt.Sprint(s["reasons"]) == "[sender_blocked]" && s["verdict"] == "blocked" && m["quarantined"] == true
			if blocked != c.blocked {
				t.Errorf("%s (From %s %v): blocked %v, want %v (%v)", c.subject, c.from, c.headers, blocked, c.blocked, s)
			}
		}
	})
}
