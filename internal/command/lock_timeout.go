package command

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// unlocked is a state backend used without its lock (-lock=false): taking
// the lock succeeds without touching it, and the lock counts as held, so
// the commands and apply run as they do with it.
type unlocked struct{ state.Backend }

func (unlocked) Lock(context.Context, string) (func() error, error) {
	return func() error { return nil }, nil
}

func (unlocked) CheckLock(context.Context) error { return nil }

// Close closes the backend underneath (closeBackend looks for it).
func (u unlocked) Close(ctx context.Context) error {
	if c, ok := u.Backend.(interface{ Close(context.Context) error }); ok {
		return c.Close(ctx)
	}
	return nil
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
