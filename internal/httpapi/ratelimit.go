package httpapi

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// rateLimiter keeps a token bucket per credential. Buckets idle for ten
// minutes are dropped so the map does not grow without bound. Limits are per
// server node; behind a load balancer the effective limit is the sum.
type rateLimiter struct {
	limit rate.Limit
	burst int

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	l    *rate.Limiter
	seen time.Time
}

func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	if perSecond <= 0 {
		return nil
	}
	if burst <= 0 {
		burst = int(perSecond * 2)
	}
	return &rateLimiter{limit: rate.Limit(perSecond), burst: burst, buckets: map[string]*bucket{}, swept: time.Now()}
}

// allow takes a token for key, or says how long to wait for one.
func (rl *rateLimiter) allow(key string) (time.Duration, bool) {
	now := time.Now()
	rl.mu.Lock()
	b := rl.buckets[key]
	if b == nil {
		b = &bucket{l: rate.NewLimiter(rl.limit, rl.burst)}
		rl.buckets[key] = b
	}
	b.seen = now
	if now.Sub(rl.swept) > time.Minute {
		for k, v := range rl.buckets {
			if now.Sub(v.seen) > 10*time.Minute {
				delete(rl.buckets, k)
			}
		}
		rl.swept = now
	}
	rl.mu.Unlock()
	r := b.l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}
