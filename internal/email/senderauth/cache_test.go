package senderauth

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/dnstest"
)

// cachingFixture is a CachingResolver in front of a real DNS server on
// loopback, with a clock the test moves.
type cachingFixture struct {
	zone  *dnstest.Zone
	cache *CachingResolver
	now   time.Time
	mu    sync.Mutex
}

func newCachingFixture(t *testing.T) *cachingFixture {
	t.Helper()
	f := &cachingFixture{zone: dnstest.NewZone(), now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	f.cache = NewCachingResolver(NewResolver(dnstest.Start(t, f.zone)))
	f.cache.now = func() time.Time {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.now
	}
	return f
}

func (f *cachingFixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

func (f *cachingFixture) txt(t *testing.T, name string) ([]string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return f.cache.LookupTXT(ctx, name)
}

func TestCachingResolverReusesAnswersUntilTheyExpire(t *testing.T) {
	f := newCachingFixture(t)
	f.zone.TXT("mail.test", "v=spf1 -all")
	for range 3 {
		got, err := f.txt(t, "mail.test")
		if err != nil || !slices.Equal(got, []string{"v=spf1 -all"}) {
			t.Fatalf("lookup = %q, %v", got, err)
		}
	}
	if n := f.zone.Queries("mail.test"); n != 1 {
		t.Fatalf("%d queries for three lookups within the TTL, want 1", n)
	}
	// A caller editing its answer does not edit the next caller's.
	got, _ := f.txt(t, "mail.test")
	got[0] = "changed"
	if again, _ := f.txt(t, "mail.test"); again[0] != "v=spf1 -all" {
		t.Fatalf("the cached answer was modified through a returned slice: %q", again)
	}

	f.zone.ReplaceTXT("mail.test", "v=spf1 ip4:192.0.2.1 -all")
	f.advance(cacheAnswerTTL - time.Second)
	if got, _ := f.txt(t, "mail.test"); got[0] != "v=spf1 -all" {
		t.Fatalf("answer replaced before the TTL: %q", got)
	}
	f.advance(2 * time.Second)
	if got, _ := f.txt(t, "mail.test"); got[0] != "v=spf1 ip4:192.0.2.1 -all" {
		t.Fatalf("stale answer after the TTL: %q", got)
	}
	if n := f.zone.Queries("mail.test"); n != 2 {
		t.Fatalf("%d queries, want 2 (one per TTL)", n)
	}
}

func TestCachingResolverFailures(t *testing.T) {
	f := newCachingFixture(t)
	f.zone.ServFail("broken.test")

	// No such name: a definite answer, kept as long as an answer.
	_, err := f.txt(t, "_dmarc.missing.test")
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Fatalf("missing name: %v, want not found", err)
	}
	f.advance(cacheAnswerTTL - time.Second)
	if _, err := f.txt(t, "_dmarc.missing.test"); !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Fatalf("cached missing name: %v, want not found", err)
	}
	if n := f.zone.Queries("_dmarc.missing.test"); n != 1 {
		t.Fatalf("%d queries for a missing name within the TTL, want 1", n)
	}

	// SERVFAIL: kept a few seconds only.
	if _, err := f.txt(t, "broken.test"); err == nil {
		t.Fatal("SERVFAIL gave no error")
	}
	first := f.zone.Queries("broken.test")
	if _, err := f.txt(t, "broken.test"); err == nil {
		t.Fatal("cached SERVFAIL gave no error")
	}
	if n := f.zone.Queries("broken.test"); n != first {
		t.Fatalf("SERVFAIL asked again at once (%d then %d queries)", first, n)
	}
	f.advance(cacheFailureTTL + time.Second)
	_, _ = f.txt(t, "broken.test")
	if n := f.zone.Queries("broken.test"); n == first {
		t.Fatal("SERVFAIL still cached after its short TTL")
	}
}

// A lookup that ran out of time says nothing about the name: the next one
// asks the server again.
func TestCachingResolverDoesNotCacheTimeouts(t *testing.T) {
	f := newCachingFixture(t)
	f.zone.Drop("slow.test")
	lookup := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := f.cache.LookupTXT(ctx, "slow.test")
		return err
	}
	if err := lookup(); err == nil {
		t.Fatal("no error from a server that never answers")
	}
	first := f.zone.Queries("slow.test")
	if err := lookup(); err == nil {
		t.Fatal("no error from a server that never answers")
	}
	if n := f.zone.Queries("slow.test"); n == first {
		t.Fatal("a timed-out lookup was answered from the cache")
	}
}

// Concurrent lookups of one name share a single query.
func TestCachingResolverSharesConcurrentLookups(t *testing.T) {
	f := newCachingFixture(t)
	f.zone.TXT("burst.test", "v=DMARC1; p=reject")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			got, err := f.txt(t, "burst.test")
			if err == nil && (len(got) != 1 || got[0] != "v=DMARC1; p=reject") {
				err = errors.New("wrong answer " + got[0])
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := f.zone.Queries("burst.test"); n != 1 {
		t.Fatalf("%d queries for 20 concurrent lookups, want 1", n)
	}
}

// The checker gives the same results through the cache, with fewer queries.
func TestCheckThroughCachingResolver(t *testing.T) {
	f := newFixture(t)
	input := func() Input {
		return Input{RemoteIP: net.ParseIP("192.0.2.10"), Helo: "mx.good.test", MailFrom: "alice@good.test",
			Raw: []byte(f.sign(t, message("alice@good.test"), "good.test"))}
	}
	uncached := f.checker.Check(context.Background(), input())
	before := f.zone.Queries("good.test")
	cached := &Checker{Resolver: NewCachingResolver(f.checker.Resolver), AuthServID: f.checker.AuthServID}
	for range 3 {
		got := cached.Check(context.Background(), input())
		if got.SPF != uncached.SPF || got.DKIM != uncached.DKIM || got.DMARC != uncached.DMARC || got.SPF != Pass || got.DMARC != Pass {
			t.Fatalf("through the cache spf=%s dkim=%s dmarc=%s, uncached spf=%s dkim=%s dmarc=%s",
				got.SPF, got.DKIM, got.DMARC, uncached.SPF, uncached.DKIM, uncached.DMARC)
		}
	}
	if n := f.zone.Queries("good.test") - before; n != 1 {
		t.Fatalf("three cached checks sent %d SPF queries, want 1", n)
	}
}
