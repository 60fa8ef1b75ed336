package command

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/emulator"
)

// TestInterruptWhilePlanningALargeState: SIGINT or SIGTERM while plan or
// apply works out the steps of a state of 250,000 entries (all gone: as
// many steps to order, in one project) stops it there. Before, planning
// went on for minutes and the signal was honoured, if at all, at its end.
// The run exits 1 saying nothing was changed; apply releases the state
// lock; neither saves a plan nor touches the state. The signal is sent
// once the last call to the service is made, so it lands in the planning
// (the state is read before).
func TestInterruptWhilePlanningALargeState(t *testing.T) {
	dir := t.TempDir()
	const entries = 250_000
	writePlanBenchGone(t, dir, entries, entries)
	_, env := benchEmulator(t, dir, emulator.Options{RatePerMinute: -1})
	cfg := filepath.Join(dir, "cfg")
	stateFile := filepath.Join(cfg, "neonform.state.json")
	before, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(dir, "plan.json")
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
		want string
	}{
		{syscall.SIGINT, []string{"plan", "-out", planFile, cfg}, "Plan cancelled: nothing was changed.\n"},
		{syscall.SIGTERM, []string{"plan", "-out", planFile, cfg}, "Plan cancelled: nothing was changed.\n"},
		{syscall.SIGINT, []string{"apply", "-auto-approve", cfg}, "Apply cancelled: nothing was changed.\n"},
		{syscall.SIGTERM, []string{"apply", "-auto-approve", cfg}, "Apply cancelled: nothing was changed.\n"},
	} {
		t.Run(c.args[0]+"/"+c.sig.String(), func(t *testing.T) {
			cmd := exec.Command("neonform", c.args...)
			cmd.Env = append(env, "NEONFORM_LOG=debug")
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The project's endpoints are its last read: planning follows.
			for !strings.Contains(stderr.String(), "/endpoints") {
				if cmd.ProcessState != nil {
					break
				}
				time.Sleep(time.Millisecond)
			}
			cmd.Process.Signal(c.sig)
			stoppedWithNothingChanged(t, waitExit(t, cmd), stdout.String(), stderr.String(), c.want,
				"Apply forgets", "the plan was made", stateFile, before, planFile)
		})
	}
}

// TestInterruptWhileReadingALargeState: SIGINT or SIGTERM while plan or
// apply reads a state of 250,000 entries (about 100 MB, seconds of CPU to
// decode) stops the read there. The run exits 1 saying nothing was
// changed, before it asks the service anything; apply releases the state
// lock; neither saves a plan nor touches the state. plan is signalled
// once it has used 0.3 s of processor time (reading the file and starting
// to decode it), apply once it holds the lock, which it takes just before
// it reads the state.
func TestInterruptWhileReadingALargeState(t *testing.T) {
	dir := t.TempDir()
	const entries = 250_000
	writePlanBenchGone(t, dir, entries, entries)
	_, env := benchEmulator(t, dir, emulator.Options{RatePerMinute: -1})
	cfg := filepath.Join(dir, "cfg")
	stateFile := filepath.Join(cfg, "neonform.state.json")
	before, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(dir, "plan.json")
	reading := map[string]func(pid int) bool{
		"plan":  func(pid int) bool { return cpuTime(t, pid) >= 300*time.Millisecond },
		"apply": func(int) bool { _, err := os.Stat(stateFile + ".lock"); return err == nil },
	}
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
		want string
	}{
		{syscall.SIGINT, []string{"plan", "-out", planFile, cfg}, "Plan cancelled: nothing was changed.\n"},
		{syscall.SIGTERM, []string{"plan", "-out", planFile, cfg}, "Plan cancelled: nothing was changed.\n"},
		{syscall.SIGINT, []string{"apply", "-auto-approve", cfg}, "Apply cancelled: nothing was changed.\n"},
	} {
		t.Run(c.args[0]+"/"+c.sig.String(), func(t *testing.T) {
			cmd := exec.Command("neonform", c.args...)
			cmd.Env = append(env, "NEONFORM_LOG=debug")
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for !reading[c.args[0]](cmd.Process.Pid) && !strings.Contains(stderr.String(), "/endpoints") {
				time.Sleep(time.Millisecond)
			}
			cmd.Process.Signal(c.sig)
			stoppedWithNothingChanged(t, waitExit(t, cmd), stdout.String(), stderr.String(), c.want,
				"/endpoints", "the state was read to its end (the service was asked for the endpoints)", stateFile, before, planFile)
		})
	}
}

// stoppedWithNothingChanged checks an interrupted run: it exited 1 with
// want at the end of its standard error, never printed notSeen (which
// would mean what why says) nor a Go trace, left the state as before, and
// left no plan file and no lock.
func stoppedWithNothingChanged(t *testing.T, code int, stdout, stderr, want, notSeen, why, stateFile string, before []byte, planFile string) {
	t.Helper()
	out := stdout + stderr
	if code != 1 || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d, want 1 and %q:\n%.3000s", code, want, out[max(0, len(out)-3000):])
	}
	if strings.Contains(out, notSeen) || strings.Contains(out, "goroutine ") {
		t.Errorf("%s, or the run crashed:\n%.3000s", why, out[max(0, len(out)-3000):])
	}
	after, err := os.ReadFile(stateFile)
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf("the state changed (%v)", err)
	}
	for _, f := range []string{planFile, stateFile + ".lock"} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want none", f, err)
		}
	}
}
