package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

// Resolver looks up a host's addresses (net.DefaultResolver is one).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrRefusedAddress is why an attempt to a non-public address fails.
var ErrRefusedAddress = errors.New("refused non-public address")

// blockedPrefixes are ranges that are not on the public internet, beyond
// what netip's predicates cover: CGNAT (RFC 6598, also Alibaba's metadata
// address 100.100.100.200), "this network", IETF protocol assignments,
// benchmarking, documentation, reserved and broadcast, NAT64 (which can
// embed a private IPv4 address) and the IPv6 documentation range.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// addrAllowed says whether a receiver may be at a. Loopback, private (RFC
// 1918, ULA fc00::/7), link-local (169.254/16 holds the cloud metadata
// service 169.254.169.254; fe80::/10), multicast, unspecified and the
// ranges above are refused; dev mode allows loopback only.
func addrAllowed(a netip.Addr, dev bool) bool {
	a = a.Unmap() // ::ffff:10.0.0.1 is 10.0.0.1
	if !a.IsValid() {
		return false
	}
	if a.IsLoopback() {
		return dev
	}
	if a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() ||
		a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	if a.Is4() && a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return false
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// dialControl runs after DNS resolution, just before each connect, on the
// address actually dialled: a host name whose DNS answer changes between
// the check at save time and the send (DNS rebinding) is still refused.
func dialControl(dev bool) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrRefusedAddress, address)
		}
		if !addrAllowed(ap.Addr(), dev) {
			return fmt.Errorf("%w: %s", ErrRefusedAddress, ap.Addr())
		}
		return nil
	}
}

// checkURL validates an endpoint URL when it is saved: https (http in dev
// mode), a host, no credentials; an address literal must be public, and a
// name must not resolve to a non-public address. A name that does not
// resolve now is accepted: the dial-time check guards every send.
func checkURL(ctx context.Context, raw string, dev bool, r Resolver) (string, error) {
	bad := func(format string, args ...any) error {
		return apierr.Invalid("url", format, args...).WithHint("use an https URL on a public host, for example https://hooks.example.com/agentsvc")
	}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", bad("is required")
	}
	if len(raw) > 2048 {
		return "", bad("must be at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", bad("is not an absolute URL")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !dev {
			return "", bad("must use https")
		}
	default:
		return "", bad("must use https")
	}
	if u.User != nil {
		return "", bad("must not contain credentials")
	}
	u.Fragment = ""
	host := u.Hostname()
	if host == "" {
		return "", bad("has no host")
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if !addrAllowed(a, dev) {
			return "", bad("points at a non-public address (%s)", a)
		}
		return u.String(), nil
	}
	if r != nil {
		lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		addrs, err := r.LookupNetIP(lctx, "ip", host)
		if err == nil {
			for _, a := range addrs {
				if !addrAllowed(a, dev) {
					return "", bad("host %s resolves to a non-public address (%s)", host, a.Unmap())
				}
			}
		}
	}
	return u.String(), nil
}

// isRefused reports whether err came from the dial-time address check.
func isRefused(err error) bool {
	var op *net.OpError
	return errors.Is(err, ErrRefusedAddress) || (errors.As(err, &op) && errors.Is(op.Err, ErrRefusedAddress))
}
