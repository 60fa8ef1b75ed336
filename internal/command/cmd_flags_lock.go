package command

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"
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

// lockTimeoutOf reads -lock-timeout; a negative one is a mistake.
func lockTimeoutOf(c *cli.Context) (time.Duration, error) {
	d := c.Duration("lock-timeout")
	if d < 0 {
		return 0, fmt.Errorf("-lock-timeout %s: give how long to wait for the state lock, 0 (the default) not to wait", d)
	}
	return d, nil
}
