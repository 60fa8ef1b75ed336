package api

import (
	"context"
	"sync"
	"time"
)

// Ledger is a Budget of one process: the requests of the last minute, for the
// account and for each route. A Client without Options.Budget makes its own;
// clients given the same Ledger share it.
type Ledger struct {
	limits Limits
	now    func() time.Time

	mu          sync.Mutex
	account     window
	routes      map[string]*window
	pausedUntil time.Time
	slowdowns   int       // 429s since the limits were last whole
	slowedUntil time.Time // when they are whole again
}

// window is the requests of one window: those sent and not yet answered, and
// when the others were answered, oldest first.
type window struct {
	inFlight int
	answered []time.Time
}

// NewLedger is an empty budget for limits.
func NewLedger(limits Limits) *Ledger {
	return &Ledger{limits: limits, now: time.Now, routes: map[string]*window{}}
}

// Spend takes a request out of the ledger, or says how long until one fits.
func (l *Ledger) Spend(_ context.Context, route string) (func(), time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	lim := l.current(now)
	minute, second := lim.Windows()
	rt := l.routes[route]
	if rt == nil {
		rt = &window{}
		l.routes[route] = rt
	}
	wait := max(l.pausedUntil.Sub(now), l.account.wait(lim.PerMinute, minute, now), rt.wait(lim.PerRoute, second, now))
	if wait > 0 {
		return nil, wait, nil
	}
	l.account.inFlight++
	rt.inFlight++
	var once sync.Once
	return func() { once.Do(func() { l.answered(rt) }) }, 0, nil
}

// answered moves a request of rt from in flight to answered now.
func (l *Ledger) answered(rt *window) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for _, w := range []*window{&l.account, rt} {
		w.inFlight--
		w.answered = append(w.answered, now)
	}
}

// Throttled pauses every spender for wait and halves the limits.
func (l *Ledger) Throttled(_ context.Context, _ string, wait time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.current(now)
	if until := now.Add(wait); until.After(l.pausedUntil) {
		l.pausedUntil = until
	}
	l.slowdowns++
	l.slowedUntil = l.pausedUntil.Add(l.limits.Minute)
	return nil
}

// Unspent is what is left of the minute's window.
func (l *Ledger) Unspent() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	lim := l.current(now)
	minute, _ := lim.Windows()
	return max(lim.PerMinute-l.account.count(minute, now), 0)
}

// Slowdowns is how many 429s halved the limits, since they were last whole.
func (l *Ledger) Slowdowns() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.current(l.now())
	return l.slowdowns
}

// current is the limits in force at now: whole again a minute after the last
// pause. Caller holds l.mu.
func (l *Ledger) current(now time.Time) Limits {
	if l.slowdowns > 0 && now.After(l.slowedUntil) {
		l.slowdowns = 0
	}
	return l.limits.Slowed(l.slowdowns)
}

// count is how many requests the window of span ending at now holds, having
// dropped those answered before it.
func (w *window) count(span time.Duration, now time.Time) int {
	from := now.Add(-span)
	i := 0
	for i < len(w.answered) && !w.answered[i].After(from) {
		i++
	}
	w.answered = w.answered[i:]
	if len(w.answered) == 0 {
		w.answered = nil // let the array go
	}
	return w.inFlight + len(w.answered)
}

// wait is how long until the window of span has room for one more request
// under limit: until enough answered ones leave it. When that needs one still
// in flight, it leaves a span after its answer at the soonest.
func (w *window) wait(limit int, span time.Duration, now time.Time) time.Duration {
	over := w.count(span, now) - limit + 1 // how many must leave
	switch {
	case over <= 0:
		return 0
	case over <= len(w.answered):
		return w.answered[over-1].Add(span).Sub(now)
	}
	return span
}
