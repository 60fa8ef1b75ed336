package emulator

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// The service allows 700 requests a minute with bursts of 40 per route, per account
// (FACTS.md section 6). The emulator keeps one token bucket per key and route.
const (
	defaultRatePerMinute = 700
	defaultBurst         = 40
)

type limitKey struct {
	keyID int64
	route string
}

// limiter is the service's rate limit. It reads the emulator's clock, so with a FakeClock
// tokens come back only when the test advances time.
type limiter struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	buckets map[limitKey]*rate.Limiter
}

// newLimiter returns nil when the limit is off (perMinute < 0).
func newLimiter(perMinute, burst int) *limiter {
	if perMinute < 0 {
		return nil
	}
	if perMinute == 0 {
		perMinute = defaultRatePerMinute
	}
	if burst <= 0 {
		burst = defaultBurst
	}
	return &limiter{every: rate.Limit(float64(perMinute) / 60), burst: burst, buckets: map[limitKey]*rate.Limiter{}}
}

// allow takes a token for this key and route at now, or says how long to wait for one.
func (l *limiter) allow(keyID int64, route string, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	k := limitKey{keyID, route}
	l.mu.Lock()
	b := l.buckets[k]
	if b == nil {
		b = rate.NewLimiter(l.every, l.burst)
		l.buckets[k] = b
	}
	l.mu.Unlock()
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}
