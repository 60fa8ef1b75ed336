package api

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultParallelReads is how many reads (of projects) a caller sends at once
// unless told otherwise. A read is answered in one round trip, and the budget
// lets a route's 40 a second out at once (budget.go): at 30 ms a round trip,
// 40 reads at once are what keep up with it, and no more could leave in the
// same second.
const DefaultParallelReads = 40

// pacer is what the client's requests wait for: the budget (nil: not paced),
// and what this client learned of it.
type pacer struct {
	budget    Budget
	limits    Limits
	slowdowns atomic.Int64 // 429s this client received

	mu      sync.Mutex
	noticed time.Time // the end of the last long wait told (OnWait)
}

// firstToWait says whether a long wait until until is news: the requests
// waiting at once for one window or pause tell it once.
func (p *pacer) firstToWait(until time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if until.Before(p.noticed.Add(waitNoticeAfter)) {
		return false
	}
	p.noticed = until
	return true
}

// Limits are the rate limits the client keeps under (Options.RatePerMinute,
// Burst and RateMinute with their defaults), for a Budget made outside it.
func (o Options) Limits() Limits {
	l := Limits{PerMinute: o.RatePerMinute, PerRoute: o.Burst, Minute: orDefault(o.RateMinute, time.Minute)}
	if l.PerMinute == 0 {
		l.PerMinute = DefaultRatePerMinute
	}
	if l.PerRoute == 0 {
		l.PerRoute = DefaultBurst
	}
	return l
}

func newPacer(opts Options) *pacer {
	p := &pacer{budget: opts.Budget, limits: opts.Limits()}
	if opts.RatePerMinute < 0 {
		p.budget = nil
	} else if p.budget == nil {
		p.budget = NewLedger(p.limits)
	}
	return p
}

// Rate is how many requests a second the client sends at most over a run
// longer than the minute's budget. 0: it is not paced (Options.RatePerMinute
// < 0).
func (c *Client) Rate() float64 {
	if c.pace.budget == nil {
		return 0
	}
	return c.pace.limits.Rate()
}

// Unspent is how many requests the budget would let out at once now; -1 when
// the client is not paced.
func (c *Client) Unspent() int {
	if c.pace.budget == nil {
		return -1
	}
	return c.pace.budget.Unspent()
}

// Requests is how many requests the client has sent (each attempt counts).
func (c *Client) Requests() int64 { return c.sent.Load() }

// Slowdowns is how many 429 answers this client received.
func (c *Client) Slowdowns() int { return int(c.pace.slowdowns.Load()) }

// wait holds an attempt until the budget lets it go, and returns what to
// call once its answer came back.
func (c *Client) wait(ctx context.Context, method, path string) (func(), error) {
	if c.pace.budget == nil {
		return func() {}, ctx.Err()
	}
	route := RouteOf(method, path)
	for {
		done, d, err := c.pace.budget.Spend(ctx, route)
		if err != nil || done != nil {
			return done, err
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
			return nil, fmt.Errorf("the budget lets the request out in %s, after the call's deadline: %w", d.Round(time.Millisecond), context.DeadlineExceeded)
		}
		// Not booked against the run's WaitTimeout: every request waiting at
		// once waits out the same window or pause, which would count many
		// times over (the retry of a 429 is booked, waiting.go).
		if d >= waitNoticeAfter && c.pace.firstToWait(time.Now().Add(d)) {
			c.noticeWait(Wait{What: fmt.Sprintf("to send %s %s: the account's rate budget is spent for now (by this run, the runs sharing it, or a 429's pause)", method, path), For: d})
		}
		if err := c.sleep(ctx, d); err != nil {
			return nil, err
		}
	}
}

// throttled tells the budget of a 429 that asked for wait.
func (c *Client) throttled(ctx context.Context, method, path string, wait time.Duration) error {
	c.pace.slowdowns.Add(1)
	if c.pace.budget == nil {
		return nil
	}
	return c.pace.budget.Throttled(ctx, RouteOf(method, path), wait)
}
