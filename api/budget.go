package api

import (
	"context"
	"strings"
	"time"
)

// The service counts requests in two windows (docs/service.md, Rate limits and
// waiting): at most 700 in any minute for the whole account, and at most 40 in
// any second on one route. Every run on the account draws on that one budget,
// so the client does not pace itself alone: it asks a Budget before each
// request. The budget keeps a ledger of what was spent in the last minute: a
// run that finds the minute unused sends at once, up to a route's 40 in a
// second, and waits only when a window is full; the service's minute is never
// trickled out.

// Budget is the account's rate budget, shared by every client (in one process
// or many) that draws on it. The client's own (NewLedger) is used when
// Options.Budget is nil; a state backend shared by several runs gives them one
// (state/pgbudget), and the runs on one machine without it share a file
// (state/filebudget).
//
// A request counts in a window from when it is spent until a window's span
// after its answer came back: the service counted it somewhere between the
// two, so however late it arrived, no window of the service's holds more than
// the budget's. Sent but unanswered, it counts in every window.
type Budget interface {
	// Spend takes one request on route (RouteOf) out of the budget now and
	// returns done, to call once its answer came back (or the attempt
	// failed); or it says how long to wait before asking again, having taken
	// nothing (done nil).
	Spend(ctx context.Context, route string) (done func(), wait time.Duration, err error)
	// Throttled tells the budget that the service answered 429 on route and
	// asked for wait (its Retry-After, or the client's backoff): every client
	// of the budget pauses that long, and the budget's limits are halved
	// (Limits.Slowed) until a minute of the service's after the pause.
	Throttled(ctx context.Context, route string, wait time.Duration) error
	// Unspent is how many requests the budget would let out at once now, as
	// far as it knows: how many projects it is worth starting together.
	Unspent() int
}

// Limits are the service's rate limits a budget keeps under.
type Limits struct {
	PerMinute int           // requests in any minute, all routes of the account
	PerRoute  int           // requests in any second on one route
	Minute    time.Duration // how long the service's minute lasts: a minute, less in tests
}

// Slack stretches the windows the budget counts beyond the service's: a
// request counts until its answer came back, which is after the service
// counted it, so this is only for a service whose clock ticks coarser than
// ours.
const Slack = 10 * time.Millisecond

// maxSlowdowns caps the halvings after 429s: a sixteenth of the limits.
const maxSlowdowns = 4

// Windows are the spans the budget counts requests over: the service's minute
// and second, each stretched by Slack.
func (l Limits) Windows() (minute, second time.Duration) {
	return l.Minute + Slack, l.Minute/60 + Slack
}

// Slowed are the limits after n 429s in a row: halved each time, down to a
// sixteenth, and never below one request.
func (l Limits) Slowed(n int) Limits {
	n = min(max(n, 0), maxSlowdowns)
	l.PerMinute = max(l.PerMinute>>n, 1)
	l.PerRoute = max(l.PerRoute>>n, 1)
	return l
}

// Rate is the requests a second the limits allow over a long run.
func (l Limits) Rate() float64 {
	minute, _ := l.Windows()
	return float64(l.PerMinute) / minute.Seconds()
}

// RouteOf is the route of a request as the service counts it for its limit of
// a second: the method and the path with its ids left out ("GET
// /projects/{}/endpoints"), as the API reference writes its paths. The path's
// segments alternate between a collection and an id, so every second segment
// is an id; a fixed word there (/projects/shared) is counted with the ids, so
// two routes may share one window, never one route two.
func RouteOf(method, path string) string {
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := 1; i < len(segs); i += 2 {
		segs[i] = "{}"
	}
	return strings.ToUpper(method) + " /" + strings.Join(segs, "/")
}
