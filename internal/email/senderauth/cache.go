package senderauth

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// Cache lifetimes. The standard resolver does not report record TTLs, so
// answers are kept for a fixed time that is at or below the TTL of almost
// every SPF, DKIM and DMARC record in use (those are hours; 60 s is already
// short for DNS), so a sender's change reaches the checks within a minute.
// Failures other than "no such name" (SERVFAIL, refused, a server that does
// not answer) are kept for a few seconds only: long enough that a burst of
// mail from one sender does not send one failing query per message, short
// enough that a recovered server is asked again almost at once. Lookups
// that ran out of time are never cached: the deadline may have been the
// caller's, not the server's.
const (
	cacheAnswerTTL  = 60 * time.Second
	cacheFailureTTL = 5 * time.Second
	cacheMaxEntries = 20000
)

// CachingResolver answers repeated lookups from memory and makes concurrent
// lookups of the same name share one query. Mail arrives in bursts from the
// same senders (a newsletter, a provider's one-time codes), and each message
// needs the same SPF, DKIM key and DMARC records: without a cache every
// message repeats the same queries. Callers must not modify returned slices.
type CachingResolver struct {
	r   Resolver
	now func() time.Time

	mu       sync.Mutex
	entries  map[cacheKey]*cacheEntry
	inFlight map[cacheKey]*flight
}

type cacheKey struct {
	kind string // which lookup: "txt", "mx", "ip", "netip/" + network, "ptr"
	name string
}

type cacheEntry struct {
	val     any
	err     error
	expires time.Time
}

type flight struct {
	done chan struct{}
	val  any
	err  error
}

var _ Resolver = (*CachingResolver)(nil)

// NewCachingResolver caches the lookups of r.
func NewCachingResolver(r Resolver) *CachingResolver {
	return &CachingResolver{r: r, now: time.Now, entries: map[cacheKey]*cacheEntry{}, inFlight: map[cacheKey]*flight{}}
}

func (c *CachingResolver) LookupTXT(ctx context.Context, name string) ([]string, error) {
	v, err := c.lookup(ctx, cacheKey{"txt", name}, func(ctx context.Context) (any, error) { return c.r.LookupTXT(ctx, name) })
	out, _ := v.([]string)
	return out, err
}

func (c *CachingResolver) LookupMX(ctx context.Context, name string) ([]*net.MX, error) {
	v, err := c.lookup(ctx, cacheKey{"mx", name}, func(ctx context.Context) (any, error) { return c.r.LookupMX(ctx, name) })
	out, _ := v.([]*net.MX)
	if out == nil {
		return nil, err
	}
	// *net.MX values are pointers: hand out copies so that a caller that
	// sorts or edits them cannot change the cached answer.
	cp := make([]*net.MX, len(out))
	for i, mx := range out {
		m := *mx
		cp[i] = &m
	}
	return cp, err
}

func (c *CachingResolver) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	v, err := c.lookup(ctx, cacheKey{"ip", host}, func(ctx context.Context) (any, error) { return c.r.LookupIPAddr(ctx, host) })
	out, _ := v.([]net.IPAddr)
	return out, err
}

func (c *CachingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	v, err := c.lookup(ctx, cacheKey{"netip/" + network, host}, func(ctx context.Context) (any, error) { return c.r.LookupNetIP(ctx, network, host) })
	out, _ := v.([]netip.Addr)
	return out, err
}

func (c *CachingResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	v, err := c.lookup(ctx, cacheKey{"ptr", addr}, func(ctx context.Context) (any, error) { return c.r.LookupAddr(ctx, addr) })
	out, _ := v.([]string)
	return out, err
}

// lookup returns a fresh cached answer, joins a query in flight for the same
// key, or runs fn and caches what it returned.
func (c *CachingResolver) lookup(ctx context.Context, key cacheKey, fn func(context.Context) (any, error)) (any, error) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		if c.now().Before(e.expires) {
			c.mu.Unlock()
			return cloneAnswer(e.val), e.err
		}
		delete(c.entries, key)
	}
	if f, ok := c.inFlight[key]; ok {
		c.mu.Unlock()
		select {
		case <-f.done:
			return cloneAnswer(f.val), f.err
		case <-ctx.Done():
			return nil, &net.DNSError{Err: ctx.Err().Error(), Name: key.name, IsTimeout: true}
		}
	}
	f := &flight{done: make(chan struct{})}
	c.inFlight[key] = f
	c.mu.Unlock()

	// Callers that joined share this caller's deadline: if it runs out,
	// they see the timeout too, and it is not cached.
	f.val, f.err = fn(ctx)

	c.mu.Lock()
	delete(c.inFlight, key)
	if ttl := cacheTTL(f.err); ttl > 0 {
		if len(c.entries) >= cacheMaxEntries {
			c.evictLocked()
		}
		c.entries[key] = &cacheEntry{val: f.val, err: f.err, expires: c.now().Add(ttl)}
	}
	c.mu.Unlock()
	close(f.done)
	return cloneAnswer(f.val), f.err
}

// cacheTTL says how long an outcome may be reused (0: not at all).
func cacheTTL(err error) time.Duration {
	if err == nil {
		return cacheAnswerTTL
	}
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return 0
	case errors.As(err, &dnsErr) && dnsErr.IsTimeout:
		return 0
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return cacheAnswerTTL
	default:
		return cacheFailureTTL
	}
}

// evictLocked drops expired entries, and if the cache is still full, about
// half of the rest (map order is random enough for a cache of hints).
func (c *CachingResolver) evictLocked() {
	now := c.now()
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
		}
	}
	drop := len(c.entries) - cacheMaxEntries/2
	for k := range c.entries {
		if drop <= 0 {
			break
		}
		delete(c.entries, k)
		drop--
	}
}

// cloneAnswer copies the slices that callers could modify in place.
func cloneAnswer(v any) any {
	switch s := v.(type) {
	case []string:
		return slices.Clone(s)
	case []net.IPAddr:
		return slices.Clone(s)
	case []netip.Addr:
		return slices.Clone(s)
	}
	return v
}
