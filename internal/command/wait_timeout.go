package command

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
)

// waitTimeoutFrom is the run's limit on waiting: -wait-timeout (flag, when
// given), else NEONFORM_WAIT_TIMEOUT, else the client's default (0).
func waitTimeoutFrom(flag time.Duration, env environment) (time.Duration, error) {
	if flag > 0 {
		return flag, nil
	}
	v := strings.TrimSpace(env.get("NEONFORM_WAIT_TIMEOUT"))
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("NEONFORM_WAIT_TIMEOUT=%q: give how long a run may wait for the service in all, such as 30m (the default) or 2h", v)
	}
	return d, nil
}

// waitNote is the line said on stderr when the run begins a long wait.
func waitNote(stderr io.Writer) func(api.Wait) {
	return func(w api.Wait) {
		fmt.Fprintf(stderr, "%s...\n", w)
	}
}

// formatMinutes prints 30m0s as 30m.
func formatMinutes(d time.Duration) string {
	return strings.TrimSuffix(d.String(), "0s")
}
