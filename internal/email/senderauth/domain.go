package senderauth

import (
	"regexp"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// domainOf returns the normalized domain part of an address.
func domainOf(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 {
		return ""
	}
	return normalizeDomain(addr[i+1:])
}

// normalizeDomain lowercases a domain, drops a trailing dot and brackets, and
// converts internationalized names to their A-label form, so that domains
// from the envelope, the header and DKIM tags compare equal when they name
// the same zone.
func normalizeDomain(d string) string {
	d = strings.TrimSpace(d)
	d = strings.TrimSuffix(d, ".")
	if a, err := idna.Lookup.ToASCII(d); err == nil {
		d = a
	}
	return strings.ToLower(d)
}

// organizationalDomain is the registrable domain of d (RFC 7489 section
// 3.2): the public suffix plus one label. A domain that is itself a public
// suffix, or that the list cannot judge, is its own organizational domain.
func organizationalDomain(d string) string {
	org, err := publicsuffix.EffectiveTLDPlusOne(d)
	if err != nil {
		return d
	}
	return org
}

// aligned reports whether identifier domain id aligns with the From domain
// (RFC 7489 section 3.1): equal in strict mode, sharing the organizational
// domain in relaxed mode.
func aligned(id, from string, strict bool) bool {
	id, from = normalizeDomain(id), normalizeDomain(from)
	if id == "" || from == "" {
		return false
	}
	if strict {
		return id == from
	}
	return organizationalDomain(id) == organizationalDomain(from)
}

// resolverDetail matches what Go's resolver errors say about the network
// inside: the DNS server asked ("on 10.0.0.53:53") and the sockets used
// ("read udp 127.0.0.1:48561->127.0.0.1:53: "). The reason is shown to
// agents and written into Authentication-Results, so it leaves them out.
var resolverDetail = regexp.MustCompile(` on \[?[0-9A-Fa-f.:]+\]?:\d+|(?:read|write|dial) (?:udp|tcp)[46]? \S+: `)

// clean makes an error's text safe to show and to place in a header field
// value: control characters (a CR LF could start a new header field) become
// spaces, and resolver addresses are left out (resolverDetail).
func clean(s string) string {
	s = resolverDetail.ReplaceAllString(s, "")
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
