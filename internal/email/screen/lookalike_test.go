package screen

import (
	"strings"
	"testing"
)

func TestLookalikeDomain(t *testing.T) {
	d := NewDetector()
	c := Context{
		OrgDomains: []string{"acme-corp.com", "acme-corp.eu"},
		KnownCorrespondents: []string{"customs.gov.sg", "kesslerbank.de", "northwindlogistics.com", "initech.io", "paypal.com", "amazon.com", "atlassian.net", "ups.com", "github.com", "linear.app",
			"dhl.com", "docusign.net", "linkedin.com", "marengo-insurance.it", "ferrolabs.co.in", "rvx.nl"},
	}
	tests := []struct {
		from   string
		want   bool
		strong bool
	}{
		{"a@acme-corp.com", false, false},
		{"a@mail.acme-corp.com", false, false},
		{"a@acme-corp.eu", false, false},
		{"a@acme-crop.com", true, false},           // transposition
		{"a@acrne-corp.com", true, true},           // rn for m
		{"a@xn--cme-corp-06g.com", true, true},     // Cyrillic a, punycode
		{"a@аcme-corp.com", true, true},            // Cyrillic a, raw UTF-8
		{"a@acme-corp.co", true, false},            // TLD swap
		{"a@acmecorp.com", true, false},            // hyphen dropped
		{"a@acme-corp-hr.com", true, false},        // own name plus word
		{"a@kesslerbnak.de", true, false},          // transposition
		{"a@northwindlogistcs.com", true, false},   // deletion
		{"a@initech.co", true, false},              // TLD swap
		{"a@paypa1.com", true, true},               // digit for letter
		{"a@paypal-secure-login.com", true, false}, // brand plus lure words
		{"a@github.com.session-verify.net", true, false},
		{"a@micrοsoft.com", true, true},  // Greek omicron: mixed script
		{"a@amazon.co.uk", false, false}, // the brand's own country site
		{"a@amazon.de", false, false},
		{"a@id.atlassian.com", false, false}, // brand list knows atlassian.com
		{"a@usps.com", false, false},         // a different real company
		// Three-letter brand names need a lure word beside them; plurals of
		// lure words count.
		{"a@aws-billing-notice.com", true, false},
		{"a@ups-deliveryservice.com", true, false},
		{"a@dhl-entregas.com.br", true, false},
		{"a@aws-summit.com", false, false},
		// Brands added in the tenth session: a regional bank beside a lure
		// word, and the bank's own country sites.
		{"a@cimb-secure-login.com", true, false},
		{"a@cimb.com.my", false, false},
		{"a@dbs.com.hk", false, false},
		{"a@bdo.co.uk", false, false},       // BDO, the accountancy, on its own country site
		{"a@abc-billing.com", false, false}, // no brand named abc
		// Eleventh session: regional banks and telcos, "business" and "my"
		// as lure words, Turkish and Polish lure words.
		{"a@kbc-business.com", true, false},
		{"a@mijn-kpn-zakelijk.nl", true, false},
		{"a@ubs-digital-login.ch", true, false},
		{"a@outlook-guvenlik.com", true, false},
		{"a@cic-securite.fr", true, false},
		{"a@kbc.be", false, false},
		// Twelfth session: lure words of more languages, a brand's
		// look-alike beside words on one of its country codes, digits glued
		// to a name, "gov" outside a government registry.
		{"a@dhl-csomagkovetes.hu", true, false},
		{"a@ups-zasilka.cz", true, false},
		{"a@paypal-tunnistus.com", true, false},
		{"a@arnazon-seller.de", true, false},
		{"a@microsoft365-alerts.co", true, false},
		{"a@neak-gov.eu", true, false},
		{"a@podatki-gov.pl", true, false},
		{"a@microsoft365.com", false, false}, // alone, Microsoft's own product domain
		{"a@neak.gov.hu", false, false},
		{"a@isere.gouv.fr", false, false},
		{"a@govdelivery.com", false, false},
		// Thirteenth session: a combining mark on a near miss, a known
		// domain under a two-level suffix with hyphens for its first dots,
		// a name without its last generic word beside a lure word, a
		// three-letter correspondent's name beside a lure word, plurals
		// in -en, Russian lure words in Latin letters, "payroll".
		{"a@docusgn\u0357.net", true, false},
		{"a@ferrolabs-co.in", true, false},
		{"a@ferrolabs.co.in", false, false},
		{"a@kessler-alert.de", true, false},
		{"a@kessler.de", false, false},     // the stem alone may be another firm
		{"a@kessler-bau.de", false, false}, // so may the stem with an ordinary word
		{"a@rvx-info.com", true, false},
		{"a@rvx-bouw.nl", false, false},
		{"a@datev-rechnungen.de", true, false},
		{"a@sberbank-onlain.ru", true, false},
		{"a@ups-payroll.com", true, false},
		{"a@mail.ru", false, false}, // one letter from gmail, and a mail provider of its own
		{"a@mail.dk", false, false},
		{"a@telekom.hu", false, false}, // Deutsche Telekom's country site
		{"a@desjardins.com", false, false},
		{"a@correo.es", false, false},       // the Spanish word for mail, not Correos
		{"a@correos.es", false, false},      // Correos on its own country site
		{"a@itsm-notify.net", false, false}, // no brand itsm
		{"a@gitlab.com", false, false},
		{"a@paypay.ne.jp", false, false},
		{"a@linearb.io", false, false},
		{"a@zoominfo.com", false, false},
		{"a@pineapple.com", false, false},
		{"a@gmail.com", false, false},
		{"a@dhI.com", true, true},                              // capital I for l, as written
		{"a@dhI-express.com", true, true},                      // capital I for l, and a word added
		{"a@dhi-express.com", false, false},                    // lower-case: dhi is another name
		{"a@appleid-support.co", true, false},                  // a lure glued to the brand in one word
		{"a@pineappleid.com", false, false},                    // the brand inside another word
		{"a@acme-corpcom.net", true, false},                    // own domain with its dot taken out
		{"a@lufthansa-partnerportal.info", true, false},        // an airline and words
		{"a@ovh.net", false, false},                            // OVH's own mail domain
		{"a@fastfreight-northwindlogistics.com", false, false}, // another firm before a correspondent's name
		{"a@northwindlogistics-billing.com", true, false},      // the name first, a word after
		{"a@my-northwindlogistics.com", true, false},           // a short prefix, as a subdomain would stand
		{"a@dhi.com", false, false},                            // lower-case: a real, different company
		{"a@DHL.com", false, false},                            // the real domain in capitals
		{"a@linkedln.com", true, false},                        // ln for in
		{"a@docusign-envelope.com", true, false},               // correspondent name plus a word
		{"a@marengo-assicurazioni-secure.it", true, false},     // lead word of the name plus a lure
		{"a@marengo-assicurazioni.it", false, false},           // lead word without a lure: maybe a sister company
		{"a@eu.docusign.net", false, false},                    // real subdomain
		{"a@marengo-insurance.it", false, false},
		// Round 3 (holdout3 misses read as general gaps).
		{"a@dhl-paket-zustellung.com", true, false},  // brand token with words of any language, generic TLD
		{"a@apple-tree-nursery.ie", false, false},    // the same on a country registry needs a lure word
		{"a@greenline-office.com", false, false},     // "office" is a brand's domain label, not its name
		{"a@slack-channel-tips.com", false, false},   // ~word brand: still needs a lure
		{"a@airbnb.com-host-verify.co", true, false}, // known domain across a label boundary
		{"a@paypal.com-account-review.info", true, false},
		{"a@bookinq.com", true, false}, // q for g
		// Round 4 (holdout4): two techniques combined.
		{"a@zoom-us.meeting-invite.link", true, false},         // brand + its TLD word in a subdomain, lure domain
		{"a@docusign.secure-view.online", true, false},         // brand as subdomain of a cheap TLD
		{"a@acme-corp.secure-docs.online", true, false},        // own name buried in a subdomain
		{"a@dropbx-share.com", true, false},                    // dropped letter + lure word
		{"a@rnicrosoft-365.com", true, false},                  // rn for m as a token beside another word
		{"a@linkdin-jobs.com", true, false},                    // dropped letter of a long name + any word
		{"a@acme-corp.zendesk.com", false, false},              // own name on a real SaaS host
		{"a@acme-corp.okta.com", false, false},                 //
		{"a@google-cloud-partner.accenture.com", false, false}, // brand token on a real company's domain
		{"a@agentops-cloud.com", false, false},                 // "cloud" is a lure word, not a misspelt icloud
		{"a@dhl.tracking-hub.com", true, false},                // plain brand name, lure domain
		{"a@slack.team-chat.com", false, false},                // ~word brand needs a lure and a cheap TLD
		{"a@paypal.de", false, false},                          // a brand that runs country sites
		{"a@gmail.cat", false, false},                          // regional TLD of a +cc brand
		{"a@paypal.xyz", true, false},                          // but a generic TLD is a swap
		// Round 6 (holdout6 misses read as general gaps).
		{"a@micros0ft365.com", true, false},              // digit for a letter, glued to more characters
		{"a@usemotion.com", false, false},                // "rn" for "m" inside an ordinary glued name is no look-alike
		{"a@xn--strpe-1sa.com", true, true},              // "strípe": an accent over a brand's letter
		{"a@dhl-zustellservice.de", true, false},         // brand beside a German lure word
		{"a@paypal-sicherheit.com", true, false},         // translated lure word
		{"a@ctt-encomenda.com", true, false},             // national post with a Portuguese lure word
		{"a@ctt.pt", false, false},                       // the post itself
		{"a@portaldasfinancas.gov-pt.info", true, false}, // tax authority in a subdomain of a lure domain
		// Round 7.
		{"a@gooogle-workspace.com", true, false}, // a doubled letter needs no lure word
		{"a@gulfclear-customs.ae", false, false},
		// Round 8.
		{"a@initech-io.com", true, false},         // the correspondent's domain with a hyphen for its dot
		{"a@paypal-securelogin.com", true, false}, // two lure words glued together
		{"a@customs-gov-sg.com", true, false},     // a government word with a "gov" token
	}
	for _, tc := range tests {
		t.Run(tc.from, func(t *testing.T) {
			r := d.Screen(Message{From: Address{Address: tc.from}}, c)
			if got := r.Has(ReasonLookalikeDomain); got != tc.want {
				t.Fatalf("lookalike = %v, want %v; findings %+v", got, tc.want, r.Findings)
			}
			if tc.want {
				if got := r.Findings[0].strong; got != tc.strong {
					t.Errorf("strong = %v, want %v (%s)", got, tc.strong, r.Findings[0].Detail)
				}
			}
		})
	}
}

func TestAuthResultsWithoutAuthservID(t *testing.T) {
	// Exchange Online leaves out the authserv-id that RFC 8601 puts first.
	got := authFromHeaders([]string{"spf=fail (sender IP is 45.134.26.77) smtp.mailfrom=acme-corp.com; dkim=none (message not signed) header.d=none;dmarc=fail action=oreject header.from=acme-corp.com;compauth=fail"})
	if got != (AuthResults{SPF: "fail", DKIM: "none", DMARC: "fail"}) {
		t.Fatalf("auth results = %+v", got)
	}
	got = authFromHeaders([]string{"mx.example.net; spf=pass smtp.mailfrom=example.org; dkim=pass header.d=example.org; dmarc=pass header.from=example.org"})
	if got != (AuthResults{SPF: "pass", DKIM: "pass", DMARC: "pass"}) {
		t.Fatalf("standard auth results = %+v", got)
	}
}

func TestLookalikeEnvelopeAndSender(t *testing.T) {
	d := NewDetector()
	c := Context{KnownCorrespondents: []string{"odlewnia-slask.pl"}}
	r := d.Screen(Message{From: Address{Address: "biuro@odlewnia-slask.pl"}, ReturnPath: "bounce@odlewnia-s1ask.pl"}, c)
	if !r.Has(ReasonLookalikeDomain) || !strings.Contains(r.Findings[0].Detail, "Return-Path") {
		t.Fatalf("envelope sender lookalike not flagged: %+v", r)
	}
	// An ordinary bounce domain of a mail provider is no look-alike.
	r = d.Screen(Message{From: Address{Address: "news@odlewnia-slask.pl"}, ReturnPath: "bounce-77@em123.mailgun.org"}, c)
	if r.Has(ReasonLookalikeDomain) {
		t.Fatalf("provider bounce address flagged: %+v", r)
	}
	r = d.Screen(Message{From: Address{Address: "biuro@odlewnia-slask.pl"}, Headers: map[string][]string{"Sender": {"Biuro <biuro@odlewnia-slask.com>"}}}, c)
	if !r.Has(ReasonLookalikeDomain) || !strings.Contains(r.Findings[0].Detail, "Sender") {
		t.Fatalf("Sender lookalike not flagged: %+v", r)
	}
	// A brand's own mailing domain carries its name and a word.
	r = d.Screen(Message{From: Address{Address: "feedback@slack.com"}, ReturnPath: "bounces@slack-mail.com"}, Context{KnownCorrespondents: []string{"slack.com"}})
	if r.Has(ReasonLookalikeDomain) {
		t.Fatalf("brand's bounce domain flagged: %+v", r)
	}
	// The same shape when the From does not authenticate: the mail is a
	// forgery and its envelope domain, wrapping the name in words, is the
	// forger's.
	forged := Message{From: Address{Address: "ordre@odlewnia-slask.pl"}, ReturnPath: "bounce@odlewnia-slask-billing.com",
		Auth: AuthResults{SPF: "pass", DMARC: "fail"}}
	if r = d.Screen(forged, c); !r.Has(ReasonLookalikeDomain) {
		t.Fatalf("envelope domain wrapping a known name, DMARC failed, not flagged: %+v", r)
	}
	forged.Auth.DMARC = "pass"
	if r = d.Screen(forged, c); r.Has(ReasonLookalikeDomain) {
		t.Fatalf("mailing domain of an authenticated sender flagged: %+v", r)
	}
	raw := "Return-Path: <bounce@odlewnia-s1ask.pl>\r\nFrom: biuro@odlewnia-slask.pl\r\nSubject: x\r\n\r\nhello\r\n"
	m, err := MessageFromRaw([]byte(raw))
	if err != nil || m.ReturnPath != "bounce@odlewnia-s1ask.pl" {
		t.Fatalf("MessageFromRaw Return-Path = %q, %v", m.ReturnPath, err)
	}
}

func TestLookalikeReplyTo(t *testing.T) {
	r := NewDetector().Screen(Message{
		From:    Address{Address: "dse@docusign.net"},
		ReplyTo: []Address{{Address: "x@paypa1.com"}},
	}, Context{})
	if !r.Has(ReasonLookalikeDomain) {
		t.Fatalf("Reply-To lookalike not flagged: %+v", r)
	}
}

func TestDisplayNameSpoof(t *testing.T) {
	d := NewDetector()
	tests := []struct {
		name, from string
		want       bool
	}{
		{"PayPal Service", "service@mail-center.io", true},
		{"PayPal", "service@paypal.com", false},
		{"Linear", "invoice@stripe.com", false},
		{"Target Logistics", "ops@target-logistics.example", false}, // common word
		{"Jane Doe", "jane@example.org", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := d.Screen(Message{From: Address{Name: tc.name, Address: tc.from}}, Context{})
			if got := r.Has(ReasonDisplayNameSpoof); got != tc.want {
				t.Fatalf("display_name_spoof = %v, want %v; %+v", got, tc.want, r.Findings)
			}
		})
	}
}

func TestDamerauLevenshtein(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"paypal", "paypal", 0}, {"paypal", "paypla", 1}, {"paypal", "paypl", 1},
		{"paypal", "paypall", 1}, {"github", "gitlab", 2}, {"", "abc", 3},
	}
	for _, tc := range tests {
		if got := damerauLevenshtein([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("dl(%q,%q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestBundledBrands(t *testing.T) {
	brands := bundledBrands()
	if len(brands) < 240 {
		t.Fatalf("%d brands, want about 240 or more", len(brands))
	}
	// The list reaches past the brands of North America and Western Europe:
	// phishing kits imitate the banks, posts and payment apps of every
	// country.
	d := NewDetector()
	for addr, want := range map[string]bool{
		"alerts@emiratesnbd-secure.com": true,  // a lure word beside a Gulf bank
		"track@indiapost-verify.com":    true,  // India Post with a lure word
		"ajuda@nubank-seguranca.com":    true,  // a Brazilian bank with a Portuguese lure word
		"no-reply@rakuten.co.jp":        false, // the brand itself
		"kundeservice@nordea.no":        false, // a country site of a +cc brand
		"info@mercadolibre.com.ar":      false, // likewise
	} {
		if got := d.Screen(Message{From: Address{Address: addr}}, Context{}).Has(ReasonLookalikeDomain); got != want {
			t.Errorf("%s: lookalike = %v, want %v", addr, got, want)
		}
	}
	for _, b := range brands {
		if len(b.Domains) == 0 {
			t.Errorf("brand %s has no domains", b.Name)
		}
		for _, dom := range b.Domains {
			if sd, ok := parseSenderDomain(dom); !ok || sd.reg != dom {
				t.Errorf("brand %s: %q is not a registrable domain (got %q)", b.Name, dom, sd.reg)
			}
		}
	}
}

// TestDisplayNameAddressSpoof: a display name that is itself an address on
// the organization's own domain, a known correspondent's or a brand's,
// while the mail comes from another registrable domain, is the classic
// impersonation ("ceo@ourcompany.example" <attacker@gmail.com>). The same
// address, another address of the same registrable domain or of the same
// brand, list relays ("… via List") and unknown domains are not.
func TestDisplayNameAddressSpoof(t *testing.T) {
	c := Context{OrgDomains: []string{"ourcompany.example"}, KnownCorrespondents: []string{"partner.example", "shop.example"}}
	list := map[string][]string{"List-Id": {"<team.example.org>"}}
	tests := []struct {
		name, from string
		headers    map[string][]string
		want       bool
	}{
		{"ceo@ourcompany.example", "attacker@gmail.com", nil, true},
		{"ceo@ourcompany.example", "x@random.test", nil, true},
		{"CEO@OurCompany.example.", "x@random.test", nil, true},
		{"Jane Doe (jane@ourcompany.example)", "jane.doe@outlook.com", nil, true},
		{"Jane Doe <jane@ourcompany.example>", "jane.doe@outlook.com", nil, true},
		{"ceo\uff20ourcompany.example", "x@random.test", nil, true}, // fullwidth @
		{"support@paypal.com", "x@random.test", nil, true},
		{"security@microsoft.com", "alerts@zq17.test", nil, true},
		{"alice@partner.example", "alice.partner@freemail.test", nil, true},
		{"accounts@mail.partner.example", "billing@random.test", nil, true},

		{"alice@partner.example", "alice@partner.example", nil, false},
		{"ceo@ourcompany.example", "ceo@ourcompany.example", nil, false},
		{"info@shop.example", "noreply@mailer.shop.example", nil, false},
		{"service@paypal.com", "service@paypal.de", nil, false},
		{"no-reply@google.com", "x@gmail.com", nil, false},
		{"'alice@partner.example' via Team Updates", "team-updates@googlegroups.com", list, false},
		{"alice@partner.example via Builders List", "builders@lists.example.org", list, false},
		{"ceo@ourcompany.example via Secure Portal", "x@random.test", nil, true}, // "via" without list headers
		{"bob@unknown-firm.test", "bob@gmail.com", nil, false},
		{"Jane Doe", "jane.doe@outlook.com", nil, false},
		{"jane at ourcompany", "x@random.test", nil, false},
	}
	d := NewDetector()
	for _, tc := range tests {
		t.Run(tc.name+" <"+tc.from+">", func(t *testing.T) {
			r := d.Screen(Message{From: Address{Name: tc.name, Address: tc.from}, Headers: tc.headers}, c)
			if got := r.Has(ReasonDisplayNameSpoof); got != tc.want {
				t.Fatalf("display_name_spoof = %v, want %v; %+v", got, tc.want, r.Findings)
			}
		})
	}
	// A brand that is also a known correspondent (acme knows paypal.com):
	// another domain of the brand is still the brand.
	if r := d.Screen(Message{From: Address{Name: "service@paypal.com", Address: "service@paypal.de"}}, acme); r.Has(ReasonDisplayNameSpoof) {
		t.Errorf("paypal.com shown, paypal.de sending, paypal.com a correspondent: %+v", r.Findings)
	}
}
