package inbound_test

import (
	"testing"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestPostmaster: with --postmaster, mail to postmaster@ a local domain, in
// any case, lands in that inbox (RFC 5321 §4.5.1), once however many
// spellings it was sent to; postmaster@ another domain is still a relay
// attempt. Without it, or when the inbox does not exist, postmaster@ is an
// unknown address.
func TestPostmaster(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ops := env.NewAgent("ops", auth.EmailRead)
		domain := env.Creds.MailDomain
		mustSend(t, env, "reporter@isp.example", []string{"PostMaster@" + domain, "postmaster@" + domain},
			mail("reporter@isp.example", "postmaster@"+domain, "Your server sent us spam", "See the attached report."))
		msgs := waitStored(t, env, ops, 1)
		if got := msgs[0].(map[string]any)["subject"]; got != "Your server sent us spam" {
			t.Errorf("stored subject %v", got)
		}
		err := send(env.SMTPAddr(), "reporter@isp.example", []string{"postmaster@elsewhere.example"}, mail("reporter@isp.example", "postmaster@elsewhere.example", "x", "x"))
		if smtpCode(err) != 550 {
			t.Errorf("postmaster@ another domain: %v, want 550 (relay denied)", err)
		}
	}, func(c *app.Config) { c.Postmaster = "ops@agentsvc.localhost" })

	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		err := send(env.SMTPAddr(), "reporter@isp.example", []string{"postmaster@" + env.Creds.MailDomain}, mail("reporter@isp.example", "postmaster@x", "x", "x"))
		if smtpCode(err) != 550 {
			t.Errorf("postmaster@ without a postmaster inbox: %v, want 550", err)
		}
	}, func(c *app.Config) { c.Postmaster = "nobody@agentsvc.localhost" })
}
