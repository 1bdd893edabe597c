package senderauth

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"

	"github.com/agentsvc/agentsvc/internal/dnstest"
)

// fixture is a DNS world of test domains served by a real DNS server, and
// the keys that sign for them.
type fixture struct {
	checker *Checker
	keys    map[string]crypto.Signer // by signing domain
	zone    *dnstest.Zone
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	z := dnstest.NewZone()
	f := &fixture{zone: z, keys: map[string]crypto.Signer{}}

	// good.test: SPF by address and by MX; DMARC reject, quarantine for
	// subdomains, relaxed alignment.
	z.TXT("good.test", "v=spf1 ip4:192.0.2.10 mx -all")
	z.MX("good.test", 10, "mx.good.test")
	z.A("mx.good.test", "192.0.2.20")
	z.TXT("mx.good.test", "v=spf1 a -all")
	z.TXT("_dmarc.good.test", "v=DMARC1; p=reject; sp=quarantine; adkim=r; aspf=r")
	z.TXT("bounce.good.test", "v=spf1 ip4:192.0.2.10 -all")
	z.A("sub.good.test", "192.0.2.99") // exists, but no SPF and no DMARC record
	f.publishKey(t, "good.test", false)
	f.publishKey(t, "mail.good.test", false)

	// strict.test: strict alignment for both methods.
	z.TXT("strict.test", "v=spf1 ip4:192.0.2.10 -all")
	z.TXT("mail.strict.test", "v=spf1 ip4:192.0.2.10 -all")
	z.TXT("_dmarc.strict.test", "v=DMARC1; p=quarantine; adkim=s; aspf=s")
	f.publishKey(t, "strict.test", false)
	f.publishKey(t, "mail.strict.test", true) // an RSA key: a TXT record of several strings

	z.TXT("soft.test", "v=spf1 ip4:192.0.2.10 ~all")
	z.TXT("neutral.test", "v=spf1 ?all")
	z.TXT("_dmarc.neutral.test", "v=DMARC1; p=none")
	z.A("nospf.test", "192.0.2.30")
	z.TXT("broken.test", "v=spf1 ip4:192.0.2.10 -all")
	z.TXT("broken.test", "v=spf1 -all")
	z.TXT("_dmarc.broken.test", "v=DMARC1; p=bogus")
	// big.test: the SPF record among many site-verification records, more
	// than fits a UDP answer, so the resolver must retry over TCP.
	for i := range 12 {
		z.TXT("big.test", "site-verification="+strings.Repeat(string(rune('a'+i)), 180))
	}
	z.TXT("big.test", "v=spf1 ip4:192.0.2.10 -all")
	z.ServFail("flaky.test")
	z.Drop("slow.test")
	f.keys["nokey.test"] = f.keys["good.test"] // signs, but no key is published

	addr := dnstest.Start(t, z)
	f.checker = &Checker{
		Resolver:      NewResolver(addr),
		AuthServID:    "mx.agentsvc.test",
		LookupTimeout: 700 * time.Millisecond,
		CheckTimeout:  5 * time.Second,
	}
	return f
}

// publishKey creates a DKIM key for domain under selector "sel" and
// publishes its public half.
func (f *fixture) publishKey(t *testing.T, domain string, useRSA bool) {
	t.Helper()
	if useRSA {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		f.zone.TXT("sel._domainkey."+domain, "v=DKIM1; k=rsa; p="+base64.StdEncoding.EncodeToString(der))
		f.keys[domain] = key
		return
	}
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f.zone.TXT("sel._domainkey."+domain, "v=DKIM1; k=ed25519; p="+base64.StdEncoding.EncodeToString(pub))
	f.keys[domain] = key
}

func message(from string) string {
	return "From: Alice <" + from + ">\r\n" +
		"To: agent@agentsvc.test\r\n" +
		"Subject: Quarterly numbers\r\n" +
		"Date: Mon, 02 Mar 2026 10:00:00 +0000\r\n" +
		"Message-ID: <1@example>\r\n" +
		"\r\n" +
		"Hello,\r\nthe numbers are attached.\r\n"
}

// sign DKIM-signs msg for domain with the fixture's key.
func (f *fixture) sign(t *testing.T, msg, domain string) string {
	t.Helper()
	key, ok := f.keys[domain]
	if !ok {
		t.Fatalf("no key for %s", domain)
	}
	var out bytes.Buffer
	err := dkim.Sign(&out, strings.NewReader(msg), &dkim.SignOptions{Domain: domain, Selector: "sel", Signer: key})
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return out.String()
}

func tamper(msg string) string {
	return strings.Replace(msg, "the numbers are attached", "wire the money today", 1)
}

func TestCheck(t *testing.T) {
	f := newFixture(t)
	plain := message("alice@good.test")
	signed := f.sign(t, plain, "good.test")

	tests := []struct {
		name      string
		in        Input
		want      Results // compared: SPF, DKIM, DMARC, DMARCPolicy, DKIMDomains
		recordDom string
	}{
		{
			name: "all pass",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte(signed)},
			want: Results{SPF: Pass, DKIM: Pass, DMARC: Pass, DMARCPolicy: "reject", DKIMDomains: []string{"good.test"}},
		},
		{
			name: "spf pass through the mx mechanism",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.20"), Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte(plain)},
			want: Results{SPF: Pass, DKIM: None, DMARC: Pass, DMARCPolicy: "reject"},
		},
		{
			name: "spf fail, unsigned: dmarc fails with reject",
			in:   Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "evil.example", MailFrom: "alice@good.test", Raw: []byte(plain)},
			want: Results{SPF: Fail, DKIM: None, DMARC: Fail, DMARCPolicy: "reject"},
		},
		{
			name: "spf fail but aligned dkim pass: dmarc pass",
			in:   Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "evil.example", MailFrom: "alice@good.test", Raw: []byte(signed)},
			want: Results{SPF: Fail, DKIM: Pass, DMARC: Pass, DMARCPolicy: "reject", DKIMDomains: []string{"good.test"}},
		},
		{
			name: "tampered body: dkim fail, aligned spf still passes dmarc",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte(tamper(signed))},
			want: Results{SPF: Pass, DKIM: Fail, DMARC: Pass, DMARCPolicy: "reject"},
		},
		{
			name: "tampered body and spf fail: dmarc fail",
			in:   Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "evil.example", MailFrom: "alice@good.test", Raw: []byte(tamper(signed))},
			want: Results{SPF: Fail, DKIM: Fail, DMARC: Fail, DMARCPolicy: "reject"},
		},
		{
			name: "relaxed dkim alignment with a subdomain signature",
			in:   Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "evil.example", MailFrom: "alice@good.test", Raw: []byte(f.sign(t, plain, "mail.good.test"))},
			want: Results{SPF: Fail, DKIM: Pass, DMARC: Pass, DMARCPolicy: "reject", DKIMDomains: []string{"mail.good.test"}},
		},
		{
			name: "relaxed spf alignment with a bounce subdomain",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.good.test", MailFrom: "b+1@bounce.good.test", Raw: []byte(plain)},
			want: Results{SPF: Pass, DKIM: None, DMARC: Pass, DMARCPolicy: "reject"},
		},
		{
			name: "strict alignment: subdomain identities do not align",
			in: Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.strict.test", MailFrom: "b@mail.strict.test",
				Raw: []byte(f.sign(t, message("alice@strict.test"), "mail.strict.test"))},
			want: Results{SPF: Pass, DKIM: Pass, DMARC: Fail, DMARCPolicy: "quarantine", DKIMDomains: []string{"mail.strict.test"}},
		},
		{
			name: "strict alignment: exact domains align",
			in: Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "mx.strict.test", MailFrom: "b@mail.strict.test",
				Raw: []byte(f.sign(t, message("alice@strict.test"), "strict.test"))},
			want: Results{SPF: Fail, DKIM: Pass, DMARC: Pass, DMARCPolicy: "quarantine", DKIMDomains: []string{"strict.test"}},
		},
		{
			name: "subdomain uses the organizational record and its sp=",
			in: Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "evil.example", MailFrom: "alice@sub.good.test",
				Raw: []byte(message("alice@sub.good.test"))},
			want:      Results{SPF: None, DKIM: None, DMARC: Fail, DMARCPolicy: "quarantine"},
			recordDom: "good.test",
		},
		{
			name: "null sender checks the helo identity",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.20"), Helo: "mx.good.test", MailFrom: "", Raw: []byte(plain)},
			want: Results{SPF: Pass, DKIM: None, DMARC: Pass, DMARCPolicy: "reject"},
		},
		{
			name: "spf record in an answer too big for udp",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "x.example", MailFrom: "a@big.test", Raw: []byte(message("a@big.test"))},
			want: Results{SPF: Pass, DKIM: None, DMARC: None},
		},
		{
			name: "spf softfail, no dmarc record",
			in:   Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "x.example", MailFrom: "a@soft.test", Raw: []byte(message("a@soft.test"))},
			want: Results{SPF: SoftFail, DKIM: None, DMARC: None},
		},
		{
			name: "spf neutral, dmarc p=none",
			in:   Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "x.example", MailFrom: "a@neutral.test", Raw: []byte(message("a@neutral.test"))},
			want: Results{SPF: Neutral, DKIM: None, DMARC: Fail, DMARCPolicy: "none"},
		},
		{
			name: "no spf record",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.30"), Helo: "x.example", MailFrom: "a@nospf.test", Raw: []byte(message("a@nospf.test"))},
			want: Results{SPF: None, DKIM: None, DMARC: None},
		},
		{
			name: "two spf records and a broken dmarc record: permerror",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "x.example", MailFrom: "a@broken.test", Raw: []byte(message("a@broken.test"))},
			want: Results{SPF: PermError, DKIM: None, DMARC: PermError},
		},
		{
			name: "servfail: temperror",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "x.example", MailFrom: "a@flaky.test", Raw: []byte(message("a@flaky.test"))},
			want: Results{SPF: TempError, DKIM: None, DMARC: TempError},
		},
		{
			name: "signature without a published key: dkim permerror",
			in: Input{RemoteIP: net.ParseIP("198.51.100.7"), Helo: "x.example", MailFrom: "a@nokey.test",
				Raw: []byte(f.sign(t, message("a@nokey.test"), "nokey.test"))},
			want: Results{SPF: None, DKIM: PermError, DMARC: None},
		},
		{
			name: "no From field: dmarc permerror",
			in:   Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte("Subject: hi\r\n\r\nbody\r\n")},
			want: Results{SPF: Pass, DKIM: None, DMARC: PermError},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := f.checker.Check(context.Background(), tc.in)
			if got.SPF != tc.want.SPF || got.DKIM != tc.want.DKIM || got.DMARC != tc.want.DMARC || got.DMARCPolicy != tc.want.DMARCPolicy {
				t.Errorf("got spf=%s dkim=%s dmarc=%s policy=%q, want spf=%s dkim=%s dmarc=%s policy=%q\ndetails: %+v",
					got.SPF, got.DKIM, got.DMARC, got.DMARCPolicy,
					tc.want.SPF, tc.want.DKIM, tc.want.DMARC, tc.want.DMARCPolicy, got.Details)
			}
			if !slices.Equal(got.DKIMDomains, tc.want.DKIMDomains) {
				t.Errorf("DKIMDomains = %v, want %v", got.DKIMDomains, tc.want.DKIMDomains)
			}
			if tc.recordDom != "" && got.Details.DMARCRecordDomain != tc.recordDom {
				t.Errorf("DMARCRecordDomain = %q, want %q", got.Details.DMARCRecordDomain, tc.recordDom)
			}
			checkHeader(t, got)
		})
	}
}

// checkHeader parses the Authentication-Results value back and compares it
// with the results it was made from.
func checkHeader(t *testing.T, r Results) {
	t.Helper()
	id, results, err := authres.Parse(r.AuthenticationResults)
	if err != nil {
		t.Fatalf("Authentication-Results %q does not parse: %v", r.AuthenticationResults, err)
	}
	if id != "mx.agentsvc.test" {
		t.Errorf("authserv-id = %q", id)
	}
	seen := map[string]string{}
	for _, res := range results {
		switch res := res.(type) {
		case *authres.SPFResult:
			seen["spf"] = string(res.Value)
		case *authres.DKIMResult:
			if seen["dkim"] == "" || res.Value == authres.ResultPass {
				seen["dkim"] = string(res.Value)
			}
		case *authres.DMARCResult:
			seen["dmarc"] = string(res.Value)
			if res.From != r.Details.FromDomain {
				t.Errorf("header.from = %q, want %q", res.From, r.Details.FromDomain)
			}
		}
	}
	want := map[string]string{"spf": r.SPF, "dkim": r.DKIM, "dmarc": r.DMARC}
	for k, v := range want {
		if seen[k] != v {
			t.Errorf("header %s=%q, want %q (header %q)", k, seen[k], v, r.AuthenticationResults)
		}
	}
}

// A name server that never answers must not hold the check for longer than
// the lookup timeout allows.
func TestCheckUnresponsiveDNS(t *testing.T) {
	f := newFixture(t)
	start := time.Now()
	got := f.checker.Check(context.Background(), Input{
		RemoteIP: net.ParseIP("192.0.2.10"), Helo: "x.example", MailFrom: "a@slow.test",
		Raw: []byte(message("a@slow.test")),
	})
	elapsed := time.Since(start)
	if got.SPF != TempError || got.DMARC != TempError {
		t.Errorf("spf=%s dmarc=%s, want temperror for both (%+v)", got.SPF, got.DMARC, got.Details)
	}
	// Two sequential lookups (SPF TXT, then _dmarc TXT) of 0.7 s each at
	// most, plus scheduling slack on a busy machine.
	if elapsed > 3*time.Second {
		t.Errorf("check took %v, want it bounded by the lookup timeouts", elapsed)
	}
}

// The caller's context bounds the whole check.
func TestCheckCancelled(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := f.checker.Check(ctx, Input{
		RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.good.test", MailFrom: "alice@good.test",
		Raw: []byte(f.sign(t, message("alice@good.test"), "good.test")),
	})
	if got.SPF != TempError || got.DKIM != TempError || got.DMARC != TempError {
		t.Errorf("spf=%s dkim=%s dmarc=%s, want temperror everywhere", got.SPF, got.DKIM, got.DMARC)
	}
}

func TestAligned(t *testing.T) {
	tests := []struct {
		id, from string
		strict   bool
		want     bool
	}{
		{"example.com", "example.com", true, true},
		{"EXAMPLE.com.", "example.COM", true, true},
		{"mail.example.com", "example.com", true, false},
		{"mail.example.com", "example.com", false, true},
		{"a.example.com", "b.example.com", false, true},
		{"example.co.uk", "other.co.uk", false, false}, // different registrations under a public suffix
		{"mail.example.co.uk", "example.co.uk", false, true},
		{"evil-example.com", "example.com", false, false},
		{"", "example.com", false, false},
		{"bücher.example", "xn--bcher-kva.example", true, true},
	}
	for _, tc := range tests {
		if got := aligned(tc.id, tc.from, tc.strict); got != tc.want {
			t.Errorf("aligned(%q, %q, strict=%v) = %v, want %v", tc.id, tc.from, tc.strict, got, tc.want)
		}
	}
}

func TestFromDomain(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		want    string
		wantErr bool
	}{
		{"plain", "From: a@Example.COM\r\n\r\nx", "example.com", false},
		{"display name", "From: \"Alice, Ltd\" <alice@example.com>\r\n\r\nx", "example.com", false},
		{"folded", "Subject: x\r\nFrom: Alice\r\n <alice@example.org>\r\n\r\nx", "example.org", false},
		{"broken display name falls back to brackets", "From: Alice @ Work <alice@example.net>\r\n\r\nx", "example.net", false},
		{"bare LF line endings", "From: a@example.com\nTo: b@c.d\n\nx", "example.com", false},
		{"two addresses one domain", "From: a@example.com, b@example.com\r\n\r\nx", "example.com", false},
		{"two domains", "From: a@example.com, b@example.org\r\n\r\nx", "", true},
		{"two fields", "From: a@example.com\r\nFrom: b@example.com\r\n\r\nx", "", true},
		{"missing", "To: a@example.com\r\n\r\nFrom: b@example.com\r\n", "", true},
		{"no domain", "From: alice\r\n\r\nx", "", true},
		{"comment in the local part", "From: ceo(x)@Trusted.example\r\n\r\nx", "trusted.example", false},
		{"comment before the domain", "From: Boss <ceo@(x) trusted.example>\r\n\r\nx", "trusted.example", false},
		{"idn", "From: p@Bücher.example\r\n\r\nx", "xn--bcher-kva.example", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fromDomain([]byte(tc.raw))
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("fromDomain = %q, %v; want %q, error %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
