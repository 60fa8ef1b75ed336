package emulator

import (
	"sync"
	"time"
)

// Clock tells the emulator what time it is. Every state (operation status, active or
// idle) is derived from it at read time, so a FakeClock makes the emulator deterministic.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

// Now is to the millisecond, so answers carry times like the service's, not nanoseconds.
func (realClock) Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// FakeClock is a Clock that moves only when told to. Safe for concurrent use.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewFakeClock returns a clock stopped at t.
func NewFakeClock(t time.Time) *FakeClock {
	return &FakeClock{now: t.UTC()}
}

// Now returns the clock's current time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (a negative d is ignored: time does not go back).
func (c *FakeClock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
