package command

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

// The debug log: with NEONFORM_LOG=debug in the environment (as Terraform's
// TF_LOG) or -debug on the command line, every HTTP call to the service gets
// one line on standard error (api/debuglog.go says what it holds: never the
// key, never a body).

// debugFlag is -debug, for the commands that call the service and for the
// root (neonform -debug plan).
func debugFlag() cli.Flag {
	return &cli.BoolFlag{Name: "debug", Usage: "print one line per API call on standard error: method, path, status, duration, retries, request id (as NEONFORM_LOG=debug)"}
}

// wantDebugLog reports whether this run logs its API calls: -debug, or
// NEONFORM_LOG set to debug (or trace, which Terraform users may type). Any
// other value but off is a mistake worth saying, not a silent no.
func wantDebugLog(env environment) (bool, error) {
	if env.debug {
		return true, nil
	}
	switch v := strings.ToLower(strings.TrimSpace(env.get("NEONFORM_LOG"))); v {
	case "debug", "trace":
		return true, nil
	case "", "off":
		return false, nil
	default:
		return false, fmt.Errorf("NEONFORM_LOG=%q: set it to debug (one line per API call on standard error) or off", env.get("NEONFORM_LOG"))
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
