package command

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// lockTimeoutFlag is -lock-timeout, for every command that takes the state
// lock (apply, import, state rm and mv, and whatever else edits the state):
// read it into planInputs.LockTimeout with lockTimeoutOf, and take the lock
// with lockState.
func lockTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "lock-timeout", Usage: "while another run holds the state lock, wait up to `DURATION` (30s, 2m) for it instead of failing at once"}
}

// lockTimeoutOf reads -lock-timeout; a negative one is a mistake.
func lockTimeoutOf(c *cli.Context) (time.Duration, error) {
	d := c.Duration("lock-timeout")
	if d < 0 {
		return 0, fmt.Errorf("-lock-timeout %s: give how long to wait for the state lock, 0 (the default) not to wait", d)
	}
	return d, nil
}

// lockState takes the state lock for op ("apply", "import", "state rm"),
// waiting up to timeout while another run holds it, and saying once, on
// stderr, whom it waits for.
func lockState(ctx context.Context, b state.Backend, op string, timeout time.Duration, stderr io.Writer) (unlock func() error, err error) {
	return state.LockWaiting(state.WithOperation(ctx, op), b, "", timeout, lockWaitNote(stderr, timeout))
}

// lockWaitNote is the line said when a run starts waiting for the lock.
func lockWaitNote(stderr io.Writer, timeout time.Duration) func(*state.LockedError) {
	return func(held *state.LockedError) {
		// The holder is what a lock file says: shown escaped (internal/textsafe).
		fmt.Fprintf(stderr, "Waiting for the state lock held by %s (up to %s)...\n", textsafe.Terminal(held.Holder()), timeout)
	}
}

// readLocked takes the state lock for op, as lockState does, and reads the
// state under it: what a command that edits the state starts with. On an
// error the lock is not held.
func readLocked(ctx context.Context, b state.Backend, op string, timeout time.Duration, stderr io.Writer) (*state.State, func() error, error) {
	unlock, err := lockState(ctx, b, op, timeout, stderr)
	if err != nil {
		return nil, nil, err
	}
	st, err := b.Read(ctx)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return st, unlock, nil
}
