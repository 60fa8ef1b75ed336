package command

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitExit waits for cmd, and kills it if it hangs (a test that hung would
// say less than one that fails).
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("neonform did not exit; killed it")
	}
	return cmd.ProcessState.ExitCode()
}

// TestInterruptAtThePromptCancelsAtOnce: Ctrl-C (or the terminal closing)
// while apply asks "Apply this plan?" cancels it then and there. Before, the
// next line typed was still read as the answer, and "yes" applied the plan.
func TestInterruptAtThePromptCancelsAtOnce(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			w := newCrashWorld(t, 0)
			w.write(crashBefore)
			ptmx, tty := openPTY(t)
			cmd := exec.Command("neonform", "apply", w.dir)
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			cmd.Stdin = tty // a terminal, so apply asks
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for !strings.Contains(stdout.String(), "Apply this plan? Only 'yes' is accepted: ") {
				if cmd.ProcessState != nil || strings.Contains(stderr.String(), "Error") {
					t.Fatalf("apply did not ask:\n%s%s", stdout.String(), stderr.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			w.emu.ResetStats()
			cmd.Process.Signal(sig)
			// Nothing more is typed: before, apply waited here for a line, and
			// took the next one typed as the answer.
			code := waitExit(t, cmd)
			ptmx.WriteString("yes\n") // too late to matter
			out := stdout.String() + stderr.String()
			if code != 1 || !strings.HasSuffix(stderr.String(), "Apply cancelled: nothing was changed.\n") {
				t.Errorf("exit %d, want 1 and the cancellation:\n%s", code, out)
			}
			if st := w.emu.Stats(); st.Total != 0 {
				t.Errorf("%d API calls after the interrupt: %v", st.Total, st.Requests)
			}
			for _, f := range []string{"neonform.state.json", "neonform.state.json.lock"} {
				if _, err := os.Stat(filepath.Join(w.dir, f)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s: %v, want none", f, err)
				}
			}
			if strings.Contains(out, "goroutine ") || strings.Contains(out, "Received") {
				t.Errorf("unexpected output:\n%s", out)
			}
		})
	}
}

// TestApplyGoesOnWhenStandardOutputIsClosed: neonform apply -auto-approve |
// head -2. SIGPIPE used to kill apply at the next line it printed, between
// two steps, leaving the lock behind and no report. It now carries on,
// prints the rest on standard error, and ends as usual.
func TestApplyGoesOnWhenStandardOutputIsClosed(t *testing.T) {
	w := newCrashWorld(t, 50*time.Millisecond)
	w.write(crashBefore)
	if code, out := w.neonform("apply", "-auto-approve", w.dir); code != 0 {
		t.Fatalf("first apply: %s", out)
	}
	w.write(crashAfter)
	cmd := exec.Command("neonform", "apply", "-auto-approve", "-parallelism", "1", w.dir)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// head -2, until the first step has started: then close the pipe.
	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("apply ended early: %v\n%s", err, stderr.String())
		}
		if strings.HasSuffix(line, "...\n") {
			break
		}
	}
	stdout.Close()
	code := waitExit(t, cmd)
	if code != 0 {
		t.Fatalf("exit %d (%s), want 0:\n%s", code, cmd.ProcessState, stderr.String())
	}
	for _, want := range []string{"standard output failed", "apply goes on, and prints the rest here", "Apply complete:"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("standard error lacks %q:\n%s", want, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(w.dir, "neonform.state.json.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock was left behind: %v", err)
	}
	w.checkConverged("after apply | head")
}

// cancelOn cancels a context when a line containing text is written.
type cancelOn struct {
	text   string
	cancel context.CancelFunc
	out    lockedBuffer
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.text)) {
		c.cancel()
	}
	return c.out.Write(p)
}

// TestApplyInterruptedAfterTheLastStepExitsOne: an interrupt that arrives
// once every step is done still makes the exit status 1 (as docs/apply.md,
// "Interrupting", says), with the report saying everything was done.
func TestApplyInterruptedAfterTheLastStepExitsOne(t *testing.T) {
	w := newCrashWorld(t, 0)
	w.write(crashBefore)
	plan := filepath.Join(w.dir, "plan.json")
	if code, out := w.neonform("plan", "-out", plan, w.dir); code != 0 {
		t.Fatalf("plan: %s", out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelOn{text: "Apply complete:", cancel: cancel}
	err := runApply(ctx, applyOptions{
		planInputs: planInputs{Dir: w.dir, Parallelism: 4},
		PlanFile:   plan,
		Env:        newEnvironment(os.Environ()),
		Stdin:      strings.NewReader(""),
		Stdout:     out,
		Stderr:     io.Discard,
	})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(ee.msg, "every step was done") {
		t.Fatalf("got %v, want exit 1 saying every step was done\n%s", err, out.out.String())
	}
	if !strings.Contains(out.out.String(), "Apply complete:") {
		t.Errorf("no report:\n%s", out.out.String())
	}
	w.checkConverged("after an interrupt at the end")
}
