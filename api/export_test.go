package api

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Backoff and RetryAfter are exported for the tests of the retry policy.
var (
	Backoff    = backoff
	RetryAfter = retryAfter
)

// SetSleep replaces how c waits (between retries and between polls), so a
// test can advance a fake clock instead of sleeping.
func SetSleep(c *Client, sleep func(ctx context.Context, d time.Duration) error) { c.sleep = sleep }

// RecordSleeps makes c's waits instant and returns a func that lists the
// waits asked for, so tests check how long the client would wait without
// measuring time.
func RecordSleeps(c *Client) func() []time.Duration {
	var mu sync.Mutex
	var got []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		got = append(got, d)
		mu.Unlock()
		return ctx.Err()
	}
	return func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// LedgerClock makes l read the time from now, so a test advances it instead
// of waiting.
func LedgerClock(l *Ledger, now func() time.Time) { l.now = now }
