package command

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// The debug log: with NEONFORM_LOG=debug in the environment (as Terraform's
// TF_LOG) or -debug on the command line, every HTTP call to the service gets
// one line on standard error (api/debuglog.go says what it holds: never the
// key, never a body).

// wantDebugLog reports whether this run logs its API calls: -debug, or
// NEONFORM_LOG at trace or debug. NEONFORM_LOG takes Terraform's TF_LOG
// levels, in any case, so a pipeline's setting carries over: neonform's
// only log lines are the debug lines of the API calls, so info, warn and
// error print none (warnings and errors are always said), as off does. Any
// other value is a mistake worth saying, not a silent no.
func wantDebugLog(env environment) (bool, error) {
	if env.debug {
		return true, nil
	}
	switch v := strings.ToLower(strings.TrimSpace(env.get("NEONFORM_LOG"))); v {
	case "trace", "debug":
		return true, nil
	case "", "info", "warn", "error", "off":
		return false, nil
	default:
		return false, fmt.Errorf("NEONFORM_LOG=%q: set it to one of Terraform's levels: trace or debug (one line per API call on standard error), info, warn, error or off (none)", env.get("NEONFORM_LOG"))
	}
}

// debugLog writes each line of the client's log with a UTC timestamp and
// [DEBUG] in front, so it reads apart from the progress around it. The
// client writes one whole line per Write.
type debugLog struct{ w io.Writer }

func (d debugLog) Write(p []byte) (int, error) {
	stamp := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	if _, err := fmt.Fprintf(d.w, "%s [DEBUG] api: %s", stamp, p); err != nil {
		return 0, err
	}
	return len(p), nil
}
