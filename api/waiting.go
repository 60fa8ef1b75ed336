package api

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Every wait the service imposes on a run is bounded (docs/limits.md, "Waits
// are bounded"): one Retry-After by maxRetryAfter, and all of them together by
// Options.WaitTimeout. These are the pauses before a request is sent again
// (backoff, Retry-After, the pause after a 429) and the polls while a project
// finishes operations before a change (someone else's, or a lost answer's);
// not the client's own pace, nor the wait for the operations of a call it
// made, which Options.OperationTimeout bounds.

// maxRetryAfter caps the Retry-After the client honours: a service (or a
// proxy in front of it) asking for a day is not waited a day.
const maxRetryAfter = 60 * time.Second

// DefaultWaitTimeout is Options.WaitTimeout's default.
const DefaultWaitTimeout = 30 * time.Minute

// waitNoticeAfter is how long a wait lasts before it is told to
// Options.OnWait: shorter ones are a run's ordinary pauses.
const waitNoticeAfter = 5 * time.Second

// Wait is one wait of the client longer than a few seconds, told to
// Options.OnWait as it begins.
type Wait struct {
	// What it waits for: "to send GET /projects again after 429 Too Many
	// Requests (Retry-After 60s)".
	What string
	For  time.Duration
}

// String is the line people read: "Waiting 1m0s to send GET /projects again
// after 429 Too Many Requests (Retry-After 1m0s)".
func (w Wait) String() string {
	return fmt.Sprintf("Waiting %s %s", w.For.Round(time.Second), w.What)
}

// WaitTimeoutError is a wait the client did not begin: it would have taken
// the run's waiting past Options.WaitTimeout.
type WaitTimeoutError struct {
	What    string        // what it would have waited for
	For     time.Duration // how long
	Waited  time.Duration // how long the run had waited already, in all
	Timeout time.Duration // Options.WaitTimeout
}

func (e *WaitTimeoutError) Error() string {
	return fmt.Sprintf("gave up waiting %s %s: this run has already waited %s for the service, and may wait %s in all (-wait-timeout). "+
		"The service is refusing or busy: try again later, or allow a longer wait with -wait-timeout",
		e.For.Round(time.Second), e.What, e.Waited.Round(time.Second), e.Timeout)
}

// waitBudget adds up the waits of a run: the time asked of each, so that a
// recorded sleep (in tests) counts as a real one would.
type waitBudget struct {
	limit time.Duration
	mu    sync.Mutex
	spent time.Duration
}

// take books d, or says why it may not: the limit would pass.
func (b *waitBudget) take(d time.Duration, what string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spent+d > b.limit {
		return &WaitTimeoutError{What: what, For: d, Waited: b.spent, Timeout: b.limit}
	}
	b.spent += d
	return nil
}

// waitFor is one wait that the service imposes: booked against the run's
// WaitTimeout, told to OnWait when it is long, then slept (ctx may end it).
func (c *Client) waitFor(ctx context.Context, d time.Duration, what string) error {
	if d <= 0 {
		return ctx.Err()
	}
	if err := c.waits.take(d, what); err != nil {
		return err
	}
	if d >= waitNoticeAfter {
		c.noticeWait(Wait{What: what, For: d})
	}
	return c.sleep(ctx, d)
}

// OnWait sets what the client tells of a long wait (nil: nothing), in place
// of Options.OnWait: a command that learns only later where to say it
// (apply -json) sets it then.
func (c *Client) OnWait(f func(Wait)) {
	c.onWaitMu.Lock()
	defer c.onWaitMu.Unlock()
	c.onWait = f
}

func (c *Client) noticeWait(w Wait) {
	c.onWaitMu.Lock()
	f := c.onWait
	c.onWaitMu.Unlock()
	if f != nil {
		f(w)
	}
}
