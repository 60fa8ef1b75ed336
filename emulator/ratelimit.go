package emulator

import (
	"sync"
	"time"
)

// The service allows 700 requests a minute for the whole account, with bursts of up
// to 40 requests a second per route (docs/service.md, Rate limits and waiting). The emulator counts both,
// per account, over sliding windows: at most perMinute requests in any 60 seconds on
// all routes together, and at most burst in any second on one route. Every key of an
// account draws on the same budget: a personal key's account is its user, an
// organization or project-scoped key's is the organization.
const (
	defaultRatePerMinute = 700
	defaultBurst         = 40
)

type routeOf struct {
	account string
	route   string
}

// limiter is the service's rate limit. It reads the emulator's clock, so with a FakeClock
// requests leave the windows only when the test advances time.
type limiter struct {
	mu        sync.Mutex
	perMinute int
	burst     int
	minute    time.Duration // a minute, or less in tests (Options.RateMinute)
	accounts  map[string]*window
	routes    map[routeOf]*window
}

// newLimiter returns nil when the limit is off (perMinute < 0); 0 is the service's.
// minute is how long its minute lasts (0: a minute); a route's second is a
// sixtieth of it.
func newLimiter(perMinute, burst int, minute time.Duration) *limiter {
	if perMinute < 0 {
		return nil
	}
	if perMinute == 0 {
		perMinute = defaultRatePerMinute
	}
	if burst <= 0 {
		burst = defaultBurst
	}
	if minute <= 0 {
		minute = time.Minute
	}
	return &limiter{perMinute: perMinute, burst: burst, minute: minute, accounts: map[string]*window{}, routes: map[routeOf]*window{}}
}

// Which limit refused a request, for its message.
const (
	limitNone = iota
	limitMinute
	limitBurst
)

// allow counts a request of an account on a route at now, or says which limit it
// would pass and how long until it would not. A refused request is not counted.
func (l *limiter) allow(account, route string, now time.Time) (bool, int, time.Duration) {
	if l == nil {
		return true, limitNone, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	acc := l.accounts[account]
	if acc == nil {
		acc = &window{size: l.perMinute}
		l.accounts[account] = acc
	}
	rk := routeOf{account, route}
	rt := l.routes[rk]
	if rt == nil {
		rt = &window{size: l.burst}
		l.routes[rk] = rt
	}
	wait, which := acc.wait(now, l.minute), limitMinute
	if d := rt.wait(now, l.minute/60); d > wait {
		wait, which = d, limitBurst
	}
	if wait > 0 {
		return false, which, wait
	}
	acc.add(now)
	rt.add(now)
	return true, limitNone, 0
}

// window holds the times of the last size requests, oldest at next once full.
type window struct {
	size  int
	times []time.Time // grows to size, then is a ring
	next  int
}

// wait is how long until one more request fits in span: 0 while fewer than size
// requests came in the span before now.
func (w *window) wait(now time.Time, span time.Duration) time.Duration {
	if len(w.times) < w.size {
		return 0
	}
	return max(0, w.times[w.next].Add(span).Sub(now))
}

func (w *window) add(now time.Time) {
	if len(w.times) < w.size {
		w.times = append(w.times, now)
		return
	}
	w.times[w.next] = now
	w.next = (w.next + 1) % w.size
}
