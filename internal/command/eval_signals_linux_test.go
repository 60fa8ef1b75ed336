package command

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slowLocals takes most of the evaluation's budget (docs/limits.md:
// "Evaluating expressions"): about a second of work on the development
// machine, spent in one expression.
const slowLocals = `
locals {
  grid = [for a in range(1000) : [for b in range(900) : a]]
}
`

// cpuTime is the processor time process pid has used so far, from
// /proc/PID/stat (utime and stime, in clock ticks of 1/100 s on Linux).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// signalWhileEvaluating starts neonform, and signals it once it has spent
// 0.3 s of processor time: long after it set up its signals, in the middle
// of evaluating slowLocals.
func signalWhileEvaluating(t *testing.T, sig syscall.Signal, args ...string) (code int, stderr string) {
	t.Helper()
	cmd := exec.Command("neonform", args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var errOut lockedBuffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for cpuTime(t, cmd.Process.Pid) < 300*time.Millisecond {
		if cmd.ProcessState != nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(sig)
	code = waitExit(t, cmd)
	return code, errOut.String()
}

// TestInterruptStopsTheEvaluation: SIGINT or SIGTERM while validate, plan
// or apply evaluates the configuration stops it at the next expression
// (before, validate went on to the end, ignoring both): exit 1, the place
// where it stopped, no call to the service, no state and no lock.
func TestInterruptStopsTheEvaluation(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			gridLine := strings.Count(crashBefore, "\n") + 3 // of slowLocals
			w := newCrashWorld(t, 0)
			w.write(crashBefore + slowLocals)
			for _, c := range []struct {
				args []string
				end  string
			}{
				{[]string{"validate", w.dir}, "Error: Interrupted while reading the configuration: nothing was changed.\n"},
				{[]string{"plan", w.dir}, "Plan cancelled: nothing was changed.\n"},
				{[]string{"apply", "-auto-approve", w.dir}, "Apply cancelled: nothing was changed.\n"},
			} {
				w.emu.ResetStats()
				code, stderr := signalWhileEvaluating(t, sig, c.args...)
				if code != 1 || !strings.HasSuffix(stderr, c.end) {
					t.Errorf("%s: exit %d, want 1, and the end %q:\n%s", c.args[0], code, c.end, stderr)
				}
				if !strings.Contains(stderr, "Error: Interrupted\n") || !strings.Contains(stderr, "main.hcl:"+strconv.Itoa(gridLine)+":") {
					t.Errorf("%s: the interrupt is not said where the evaluation stopped:\n%s", c.args[0], stderr)
				}
				if strings.Contains(stderr, "goroutine ") {
					t.Errorf("%s: a stack trace:\n%s", c.args[0], stderr)
				}
				if st := w.emu.Stats(); st.Total != 0 {
					t.Errorf("%s: %d API calls: %v", c.args[0], st.Total, st.Requests)
				}
				for _, f := range []string{"neonform.state.json", "neonform.state.json.lock"} {
					if _, err := os.Stat(filepath.Join(w.dir, f)); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("%s: %s: %v, want none", c.args[0], f, err)
					}
				}
			}
		})
	}
}
