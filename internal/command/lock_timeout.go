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

// lockFlag is -lock, which every command with -lock-timeout takes too
// (commands adds it): -lock=false runs without the state lock, as
// Terraform's -lock=false does, for a state that nothing else can change
// meanwhile (a one-off recovery, a copy). environmentOf reads it, and
// openState then hands out the backend unlocked.
func lockFlag() cli.Flag {
	return &cli.BoolFlag{Name: "lock", Value: true, Usage: "take the state lock; -lock=false runs without it (only when nothing else can change the state meanwhile)"}
}

// planLockFlags are -lock and -lock-timeout for plan, which reads the state
// without its lock and so never waits for it (docs/state.md): accepted so
// that Terraform's command lines work, and said to change nothing.
func planLockFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "lock", Value: true, Usage: "accepted as Terraform's: plan reads the state without its lock, so -lock=false changes nothing"},
		&cli.DurationFlag{Name: "lock-timeout", Usage: "accepted as Terraform's (`DURATION`): plan reads the state without its lock, so it never waits for it"},
	}
}

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
