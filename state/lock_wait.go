package state

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Polling for a held lock starts fast, for a run about to finish, and slows
// down to one try every lockPollMax: a Postgres state opens a connection
// per try, and a minute-long wait needs no faster answer than that.
const (
	lockPollFirst = 100 * time.Millisecond
	lockPollMax   = 2 * time.Second
)

// LockWaiting takes b's lock as Lock does, but while another run holds it,
// tries again, for up to wait (0: fail at once, as Lock). waiting, when not
// nil, is told once, when the wait starts, who holds the lock. ctx ends the
// wait early (Ctrl-C). When wait runs out, the error is the last
// *LockedError, saying so; any other error ends the wait at once.
func LockWaiting(ctx context.Context, b Backend, who string, wait time.Duration, waiting func(held *LockedError)) (unlock func() error, err error) {
	return lockWaiting(ctx, func() (func() error, error) { return b.Lock(ctx, who) }, wait, waiting)
}

// lockWaiting is LockWaiting of any lock: lock tries it once, failing at
// once with a *LockedError while it is held.
func lockWaiting(ctx context.Context, lock func() (func() error, error), wait time.Duration, waiting func(held *LockedError)) (unlock func() error, err error) {
	unlock, err = lock()
	var held *LockedError
	if wait <= 0 || !errors.As(err, &held) {
		return unlock, err
	}
	if waiting != nil {
		waiting(held)
	}
	deadline := time.Now().Add(wait)
	pause := lockPollFirst
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, &LockWaitError{Waited: wait, Locked: held}
		}
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("stopped waiting for the state lock: %w; %v", ctx.Err(), held)
		case <-t.C:
		}
		pause = min(2*pause, lockPollMax)
		unlock, err = lock()
		if !errors.As(err, &held) {
			return unlock, err
		}
	}
}

// LockWaitError is a lock still held when -lock-timeout ran out: the usual
// *LockedError (errors.As finds it), said to have been waited for.
type LockWaitError struct {
	Waited time.Duration
	Locked *LockedError
}

func (e *LockWaitError) Error() string {
	return fmt.Sprintf("gave up waiting %s for the state lock: %v", e.Waited, e.Locked)
}

func (e *LockWaitError) Unwrap() error { return e.Locked }

// Holder says who holds a lock in a few words, for a line that says a run
// waits for it: "ci on host build-agent-7 (pid 4242) for apply since
// 2026-11-20T09:15:00Z".
func (e *LockedError) Holder() string {
	i := e.Info
	if i.ID == "" {
		return "a run that does not say who it is (" + e.Path + ")"
	}
	s := fmt.Sprintf("%s on host %s (pid %d)", orUnknown(i.Who), orUnknown(i.Host), i.PID)
	if i.Operation != "" {
		s += " for " + i.Operation
	}
	if e.Project != "" {
		s += " of project " + e.project()
	}
	return s + " since " + i.Since.UTC().Format(time.RFC3339)
}
