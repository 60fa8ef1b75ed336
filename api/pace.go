package api

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// The service counts requests in two windows (docs/service.md, Rate limits and waiting): at most
// 700 in any minute for the whole account, and at most 40 in any second on
// one route. A client that stays under both never receives a 429 from a
// service that enforces exactly those limits, whatever way it counts them
// (sliding windows, fixed windows or a token bucket).
//
// The client paces itself with one token bucket: a first burst of b
// requests, then r a second. Any span of T seconds then holds at most
// b + r*T of its requests. A request reaches the service a little later than
// it leaves, and not always equally later, so the spans are stretched by
// pacingSlack: b + r*(60s + slack) must fit the minute's budget, and
// b + r*(1s + slack) one route's second. The rate is pacingShare of the
// minute's budget, which leaves room for the burst: at the documented limits,
// 22 requests at once, then 11.2 a second (672 a minute), so a long run
// takes 1.04 times the least time the limits allow, and a short one
// (22 requests or fewer) does not wait at all.
const (
	pacingSlack = 500 * time.Millisecond
	pacingShare = 0.96
	// slowdownFloor: after 429s the rate halves each time, down to this
	// share of the paced rate.
	slowdownFloor = 1.0 / 16
)

// DefaultParallelReads is how many reads (of projects) a caller sends at once
// unless told otherwise: a read is answered in one round trip, so a few at
// once keep up with the pace.
const DefaultParallelReads = 4

// Pacing is the token bucket (requests a second, and the first burst) that
// keeps a client under a service allowing perMinute requests a minute for
// the account and burst a second on one route.
func Pacing(perMinute, burst int) (rate.Limit, int) {
	return pacing(perMinute, burst, time.Minute)
}

// minPacingSlack is the least slack in real time, whatever the span of the
// service's minute: how much later than the others a request may reach the
// service on a busy machine does not shrink with a test's minute.
const minPacingSlack = 100 * time.Millisecond

// pacing is Pacing for a service whose minute lasts span (Options.RateMinute:
// tests shrink it), its second a sixtieth of that. Everything is counted in
// the service's seconds, then the rate converted to real ones; the slack is
// the service's half second, or minPacingSlack in real time if longer.
func pacing(perMinute, burst int, span time.Duration) (rate.Limit, int) {
	scale := time.Minute.Seconds() / span.Seconds()
	r, b := pacingWithSlack(perMinute, burst, max(pacingSlack.Seconds(), minPacingSlack.Seconds()*scale))
	return r * rate.Limit(scale), b
}

func pacingWithSlack(perMinute, burst int, slack float64) (rate.Limit, int) {
	minute := 60 + slack
	second := 1 + slack
	r := pacingShare * float64(perMinute) / 60
	b := math.Floor(min(float64(burst)-r*second, float64(perMinute)-r*minute))
	if b < 1 {
		// Limits too small for a burst (only tests set them): one request
		// at once, and a rate that keeps every window within its limit.
		b = 1
		r = min(r, (float64(perMinute)-1)/minute, (float64(burst)-1)/second)
		if r <= 0 {
			r = 1 / (minute + 1) // one request a minute, with room to spare
		}
	}
	return rate.Limit(r), int(b)
}

// pacer is the client's pace: the token bucket every attempt waits for, and
// the pause that a 429's Retry-After imposes on every request of the client,
// not only on the one refused.
type pacer struct {
	limiter *rate.Limiter // nil: not paced
	initial rate.Limit

	mu          sync.Mutex
	pausedUntil time.Time
	slowdowns   int
}

func newPacer(perMinute, burst int, span time.Duration) *pacer {
	if perMinute < 0 {
		return &pacer{}
	}
	r, b := pacing(perMinute, burst, span)
	return &pacer{limiter: rate.NewLimiter(r, b), initial: r}
}

// pause is when the last 429's pause ends (zero: none).
func (p *pacer) pause() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pausedUntil
}

// tooMany takes a 429 into account: no request of the client leaves before
// until, and a paced client halves its rate (down to slowdownFloor of the
// paced one) and stops bursting for the rest of its life: someone else draws
// on the account's budget. It returns the pause to wait.
func (p *pacer) tooMany(until time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if until.After(p.pausedUntil) {
		p.pausedUntil = until
	}
	p.slowdowns++
	if p.limiter != nil {
		p.limiter.SetLimit(max(p.limiter.Limit()/2, p.initial*slowdownFloor))
		p.limiter.SetBurst(1)
	}
	return p.pausedUntil
}

// Rate is how many requests a second the client sends at most, over a run
// longer than its first burst: less after a 429 slowed it down. 0: it is not
// paced (Options.RatePerMinute < 0).
func (c *Client) Rate() float64 {
	if c.pace.limiter == nil {
		return 0
	}
	return float64(c.pace.limiter.Limit())
}

// Requests is how many requests the client has sent (each attempt counts).
func (c *Client) Requests() int64 { return c.sent.Load() }

// Slowdowns is how many 429 answers slowed this client down.
func (c *Client) Slowdowns() int {
	c.pace.mu.Lock()
	defer c.pace.mu.Unlock()
	return c.pace.slowdowns
}

// wait holds an attempt until the pause of a 429 it has not waited out yet
// is over (covered: the end of the pause this request already waited for),
// then until the token bucket lets it go.
func (c *Client) wait(ctx context.Context, covered time.Time, method, path string) error {
	if until := c.pace.pause(); until.After(covered) {
		what := fmt.Sprintf("to send %s %s: the service answered 429 Too Many Requests, and every request of this run pauses", method, path)
		if err := c.waitFor(ctx, time.Until(until), what); err != nil {
			return err
		}
	}
	if c.pace.limiter == nil {
		return ctx.Err()
	}
	return c.pace.limiter.Wait(ctx)
}
