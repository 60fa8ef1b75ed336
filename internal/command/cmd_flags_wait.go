package command

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/api"
)

// waitTimeoutFlag is -wait-timeout, for every command that calls the
// service (plan, apply, destroy, import, generate): how long a run may wait,
// all its waits added up, when the service asks it to (Retry-After, a 429, a
// 503, operations running in a project). Read it into planInputs.WaitTimeout
// with waitTimeoutOf; connect gives it to the client.
func waitTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "wait-timeout", Usage: fmt.Sprintf("wait at most `DURATION` in all (e.g. 10m, 2h) when the service asks this run to wait (Retry-After, busy, operations running), then stop (default %s, or NEONFORM_WAIT_TIMEOUT)", formatMinutes(api.DefaultWaitTimeout))}
}

// waitTimeoutOf reads -wait-timeout; 0 when it is not given (then
// NEONFORM_WAIT_TIMEOUT, or the default, decides).
func waitTimeoutOf(c *cli.Context) (time.Duration, error) {
	if !c.IsSet("wait-timeout") {
		return 0, nil
	}
	d := c.Duration("wait-timeout")
	if d <= 0 {
		return 0, fmt.Errorf("-wait-timeout %s: give how long this run may wait for the service in all, such as 30m (the default) or 2h", d)
	}
	return d, nil
}
