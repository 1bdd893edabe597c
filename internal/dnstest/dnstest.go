// Package dnstest runs a real authoritative DNS server (miekg/dns) on
// loopback for tests of code that resolves names: SPF, DKIM and DMARC
// checks, MX lookups, domain verification.
package dnstest

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// Zone is the data of a real, authoritative DNS server run on loopback for a
// test: the resolver under test talks to it over UDP and TCP like to any name
// server. Unknown names are NXDOMAIN.
type Zone struct {
	mu       sync.Mutex
	records  map[string][]dns.RR // by lowercase FQDN
	servfail map[string]bool     // answer SERVFAIL for these names and below: a temporary error
	drop     map[string]bool     // never answer these names and below: the client times out
	queries  map[string]int      // questions received, by lowercase FQDN
}

// NewZone returns an empty zone.
func NewZone() *Zone {
	return &Zone{records: map[string][]dns.RR{}, servfail: map[string]bool{}, drop: map[string]bool{}, queries: map[string]int{}}
}

// Queries is how many questions the server received for name (any type,
// over UDP or TCP, retries included).
func (z *Zone) Queries(name string) int {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.queries[dns.Fqdn(strings.ToLower(name))]
}

func hdr(name string, typ uint16) dns.RR_Header {
	return dns.RR_Header{Name: dns.Fqdn(strings.ToLower(name)), Rrtype: typ, Class: dns.ClassINET, Ttl: 60}
}

func (z *Zone) add(rr dns.RR) {
	z.mu.Lock()
	defer z.mu.Unlock()
	name := rr.Header().Name
	z.records[name] = append(z.records[name], rr)
}

// TXT publishes one TXT record; values longer than 255 bytes are split into
// several strings of the same record, as zone files do.
func (z *Zone) TXT(name, value string) {
	var parts []string
	for len(value) > 255 {
		parts = append(parts, value[:255])
		value = value[255:]
	}
	parts = append(parts, value)
	z.add(&dns.TXT{Hdr: hdr(name, dns.TypeTXT), Txt: parts})
}

// MX adds an MX record.
func (z *Zone) MX(name string, pref uint16, host string) {
	z.add(&dns.MX{Hdr: hdr(name, dns.TypeMX), Preference: pref, Mx: dns.Fqdn(host)})
}

// A adds an A record.
func (z *Zone) A(name, ip string) {
	z.add(&dns.A{Hdr: hdr(name, dns.TypeA), A: net.ParseIP(ip).To4()})
}

// ServFail makes the zone answer SERVFAIL for name and below (a temporary error).
func (z *Zone) ServFail(name string) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.servfail[dns.Fqdn(strings.ToLower(name))] = true
}

// Drop makes the zone never answer name and below (the client times out).
func (z *Zone) Drop(name string) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.drop[dns.Fqdn(strings.ToLower(name))] = true
}

// ServeDNS answers a query from the zone.
func (z *Zone) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	if len(req.Question) != 1 {
		m := new(dns.Msg)
		m.SetRcode(req, dns.RcodeFormatError)
		_ = w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	z.mu.Lock()
	z.queries[name]++
	drop, servfail := inZone(z.drop, name), inZone(z.servfail, name)
	rrs, exists := z.records[name]
	z.mu.Unlock()
	if drop {
		return
	}
	m := new(dns.Msg)
	m.SetReply(req)
	// The Go resolver treats an empty non-authoritative answer without
	// recursion as a lame referral, so claim both.
	m.Authoritative = true
	m.RecursionAvailable = true
	switch {
	case servfail:
		m.Rcode = dns.RcodeServerFailure
	case !exists:
		m.Rcode = dns.RcodeNameError
	default:
		for _, rr := range rrs {
			if rr.Header().Rrtype == q.Qtype {
				m.Answer = append(m.Answer, rr)
			}
		}
	}
	if _, udp := w.RemoteAddr().(*net.UDPAddr); udp {
		size := dns.MinMsgSize
		if opt := req.IsEdns0(); opt != nil {
			size = int(opt.UDPSize())
		}
		m.Truncate(size) // sets TC, so the client retries over TCP
	}
	_ = w.WriteMsg(m)
}

// inZone reports whether name is one of the names in set or below one.
func inZone(set map[string]bool, name string) bool {
	for n := range set {
		if name == n || strings.HasSuffix(name, "."+n) {
			return true
		}
	}
	return false
}

// Start serves z on 127.0.0.1, UDP and TCP on the same port, until the
// test ends, and returns the address.
func Start(t testing.TB, z *Zone) string {
	t.Helper()
	var pc net.PacketConn
	var ln net.Listener
	for attempt := 0; ; attempt++ {
		var err error
		pc, err = net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("listen udp: %v", err)
		}
		ln, err = net.Listen("tcp", pc.LocalAddr().String())
		if err == nil {
			break
		}
		pc.Close()
		if attempt == 10 {
			t.Fatalf("listen tcp on the udp port: %v", err)
		}
	}
	servers := []*dns.Server{
		{PacketConn: pc, Handler: z},
		{Listener: ln, Handler: z},
	}
	for _, s := range servers {
		started := make(chan struct{})
		s.NotifyStartedFunc = func() { close(started) }
		go func() { _ = s.ActivateAndServe() }()
		select {
		case <-started:
		case <-time.After(5 * time.Second):
			t.Fatal("dns server did not start")
		}
		t.Cleanup(func() { _ = s.Shutdown() })
	}
	return pc.LocalAddr().String()
}

// ReplaceTXT sets the only TXT record of name.
func (z *Zone) ReplaceTXT(name, value string) {
	z.mu.Lock()
	n := dns.Fqdn(strings.ToLower(name))
	var keep []dns.RR
	for _, rr := range z.records[n] {
		if rr.Header().Rrtype != dns.TypeTXT {
			keep = append(keep, rr)
		}
	}
	z.records[n] = keep
	z.mu.Unlock()
	z.TXT(name, value)
}
