package senderauth

import "testing"

func TestCleanLeavesOutResolverAddresses(t *testing.T) {
	tests := []struct{ in, want string }{
		{"lookup example.com on 10.255.255.53:53: no such host", "lookup example.com: no such host"},
		{"lookup example.com on 10.255.255.53:53: read udp 127.0.0.1:48561->127.0.0.1:9: read: connection refused",
			"lookup example.com: read: connection refused"},
		{"lookup _dmarc.example.com on [fd00::53]:53: dial tcp [fd00::1]:4000->[fd00::53]:53: i/o timeout", "lookup _dmarc.example.com: i/o timeout"},
		{"dkim: no key for signature: lookup sel._domainkey.example.com on 10.255.255.53:53: no such host",
			"dkim: no key for signature: lookup sel._domainkey.example.com: no such host"},
		{"bad\r\nInjected: header", "bad  Injected: header"},
		{"record on 2 lines: v=spf1 -all", "record on 2 lines: v=spf1 -all"},
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
