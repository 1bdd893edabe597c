package inbound_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/dnstest"
)

// TestSenderAuthentication runs the server against a real DNS server on
// loopback: SPF passes for a domain that authorizes 127.0.0.1, fails for one
// that does not, and the failure reaches screening (spf_fail, dmarc_fail).
func TestSenderAuthentication(t *testing.T) {
	zone := dnstest.NewZone()
	zone.TXT("good.example", "v=spf1 ip4:127.0.0.1 -all")
	zone.TXT("_dmarc.good.example", "v=DMARC1; p=reject")
	zone.TXT("bad.example", "v=spf1 ip4:192.0.2.1 -all")
	zone.TXT("_dmarc.bad.example", "v=DMARC1; p=reject")
	addr := dnstest.Start(t, zone)
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("authn", auth.EmailRead)
		for _, c := range []struct {
			domain, spf, dmarc string
			reasons            []string
		}{
			{"good.example", "pass", "pass", nil},
			{"bad.example", "fail", "fail", []string{"spf_fail", "dmarc_fail"}},
		} {
			since := time.Now()
			from := "billing@" + c.domain
			mustSend(t, env, from, []string{a.Address}, mail(from, a.Address, "Invoice", "Please find the invoice attached."))
			m := waitStoredFrom(t, env, a, from, since)
			au := m["authentication"].(map[string]any)
			if au["spf"] != c.spf || au["dmarc"] != c.dmarc || !strings.Contains(au["authentication_results"].(string), "spf="+c.spf) {
				t.Errorf("%s: authentication %v", c.domain, au)
			}
			reasons := fmt.Sprint(m["screening"].(map[string]any)["reasons"])
			for _, r := range c.reasons {
				if !strings.Contains(reasons, r) {
					t.Errorf("%s: reasons %s lack %s", c.domain, reasons, r)
				}
			}
			if c.reasons == nil && reasons != "[]" {
				t.Errorf("%s: unexpected reasons %s", c.domain, reasons)
			}
		}
	}, func(c *app.Config) { c.DNSServer = addr })
}

// waitStoredFrom polls the message list for mail from addr received after
// since, quarantined or not.
func waitStoredFrom(t *testing.T, env *apptest.Env, a apptest.Agent, from string, since time.Time) map[string]any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		r := env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/messages?since="+since.UTC().Format(time.RFC3339Nano), a.Token, nil))
		for _, d := range r.JSON()["data"].([]any) {
			m := d.(map[string]any)
			if m["from"].(map[string]any)["address"] == from {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no mail from %s", from)
	return nil
}
