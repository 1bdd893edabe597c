package senderauth

import (
	"context"
	"net"
	"strings"
	"testing"
)

// TestAuthorFailure checks, on real checks against the fixture's DNS server,
// which results show the From address forged (an allow rule must then not
// be honoured) and which only say nothing.
func TestAuthorFailure(t *testing.T) {
	f := newFixture(t)
	plain := message("alice@good.test")
	signed := f.sign(t, plain, "good.test")
	stranger := net.ParseIP("198.51.100.7")
	goodIP := net.ParseIP("192.0.2.10")
	tests := []struct {
		name     string
		in       Input
		from     string // the address the caller acts on; default alice@good.test
		wantFail string // substring of the failure; "" for none
	}{
		{name: "all pass", in: Input{RemoteIP: goodIP, Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte(signed)}},
		{name: "spf and dmarc fail", in: Input{RemoteIP: stranger, Helo: "evil.example", MailFrom: "alice@good.test", Raw: []byte(plain)},
			wantFail: "SPF fail for good.test"},
		{name: "dkim fail although aligned spf passes dmarc", in: Input{RemoteIP: goodIP, Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte(tamper(signed))},
			wantFail: "DKIM fail"},
		{name: "spf softfail for the From domain, no dmarc", in: Input{RemoteIP: stranger, Helo: "x.example", MailFrom: "a@soft.test", Raw: []byte(message("a@soft.test"))},
			from: "a@soft.test", wantFail: "SPF softfail"},
		{name: "spf fail for an unaligned envelope domain says nothing about From",
			in:   Input{RemoteIP: stranger, Helo: "x.example", MailFrom: "b@soft.test", Raw: []byte(message("a@nospf.test"))},
			from: "a@nospf.test"},
		{name: "dmarc fails through another envelope domain", in: Input{RemoteIP: goodIP, Helo: "x.example", MailFrom: "a@big.test", Raw: []byte(plain)},
			wantFail: "DMARC fail for good.test"},
		{name: "no records at all", in: Input{RemoteIP: goodIP, Helo: "x.example", MailFrom: "a@nospf.test", Raw: []byte(message("a@nospf.test"))},
			from: "a@nospf.test"},
		{name: "dns trouble", in: Input{RemoteIP: goodIP, Helo: "x.example", MailFrom: "a@flaky.test", Raw: []byte(message("a@flaky.test"))},
			from: "a@flaky.test"},
		{name: "two From fields", in: Input{RemoteIP: goodIP, Helo: "x.example", MailFrom: "a@nospf.test",
			Raw: []byte("From: a@nospf.test\r\n" + message("alice@good.test"))}, wantFail: "DMARC permerror"},
		{name: "caller read another From than dmarc", in: Input{RemoteIP: goodIP, Helo: "x.example", MailFrom: "a@nospf.test", Raw: []byte(message("a@nospf.test"))},
			wantFail: "judged the From domain nospf.test, not good.test"},
		{name: "case and trailing-dot spelling of the From domain", in: Input{RemoteIP: goodIP, Helo: "mx.good.test", MailFrom: "alice@good.test", Raw: []byte(signed)},
			from: "Alice@GOOD.test."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			from := tc.from
			if from == "" {
				from = "alice@good.test"
			}
			r := f.checker.Check(context.Background(), tc.in)
			got := r.AuthorFailure(from)
			if (got == "") != (tc.wantFail == "") || !strings.Contains(got, tc.wantFail) {
				t.Errorf("AuthorFailure(%q) = %q, want %q (spf=%s dkim=%s dmarc=%s %+v)", from, got, tc.wantFail, r.SPF, r.DKIM, r.DMARC, r.Details)
			}
		})
	}
}
