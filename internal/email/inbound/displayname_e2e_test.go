package inbound_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestDisplayNameAddressOfOwnDomain: mail whose display name is an address
// on the organization's own mail domain, sent from elsewhere, is flagged
// display_name_spoof through the whole pipeline; the same name on mail
// really from that domain is not.
func TestDisplayNameAddressOfOwnDomain(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("dnspoof", auth.EmailRead, auth.EmailSend)
		own := a.Address[strings.LastIndexByte(a.Address, '@')+1:]
		for _, c := range []struct {
			from string
			want bool
		}{
			{fmt.Sprintf(`"ceo@%s" <boss.office@freemail.example>`, own), true},
			{`"support@paypal.com" <x@random.example>`, true},
			{`"bob@unknown-firm.example" <bob@freemail.example>`, false},
		} {
			since := time.Now()
			addr := c.from[strings.LastIndexByte(c.from, '<')+1 : len(c.from)-1]
			mustSend(t, env, addr, []string{a.Address}, mail(c.from, a.Address, "Quick favour", "Are you at your desk?"))
			m := waitStoredFrom(t, env, a, addr, since)
			reasons := fmt.Sprint(m["screening"].(map[string]any)["reasons"])
			if got := strings.Contains(reasons, "display_name_spoof"); got != c.want {
				t.Errorf("From %s: reasons %s, display_name_spoof %v, want %v", c.from, reasons, got, c.want)
			}
		}
	})
}
