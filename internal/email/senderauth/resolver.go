package senderauth

import (
	"context"
	"net"
	"net/netip"
	"time"
)

// Resolver is the DNS access sender authentication needs. Its method set is a
// subset of *net.Resolver, so the standard resolver (or one from NewResolver)
// satisfies it, and it is a superset of what blitiri.com.ar/go/spf asks for
// (spf.DNSResolver), so the same value drives SPF, DKIM key and DMARC policy
// lookups. The outbound delivery code can reuse it for MX lookups.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	LookupAddr(ctx context.Context, addr string) ([]string, error)
}

var _ Resolver = (*net.Resolver)(nil)

// NewResolver returns a pure-Go resolver that sends every query to serverAddr
// ("host:port"), over UDP and, when an answer is truncated, over TCP. It
// ignores the system's configured name servers, which is what tests (a DNS
// server on loopback) and deployments with a dedicated validating resolver
// want.
func NewResolver(serverAddr string) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, serverAddr)
		},
	}
}

// timeoutResolver bounds each single lookup, so that one slow name server
// cannot consume the whole budget of a check (an SPF evaluation may make up
// to ten lookups).
type timeoutResolver struct {
	r       Resolver
	timeout time.Duration
}

func (t timeoutResolver) LookupTXT(ctx context.Context, name string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	return t.r.LookupTXT(ctx, name)
}

func (t timeoutResolver) LookupMX(ctx context.Context, name string) ([]*net.MX, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	return t.r.LookupMX(ctx, name)
}

func (t timeoutResolver) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	return t.r.LookupIPAddr(ctx, host)
}

func (t timeoutResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	return t.r.LookupNetIP(ctx, network, host)
}

func (t timeoutResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	return t.r.LookupAddr(ctx, addr)
}
