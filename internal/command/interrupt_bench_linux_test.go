package command

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/emulator"
)

// BenchmarkInterruptLatency measures how long neonform takes to exit after
// SIGINT, at the state's limit: 250,000 computes in one project, all gone,
// so that planning derives, orders and checks 250,000 steps. For `plan
// -out` and for `apply` of a saved plan of that state, it sends the signal
// at a series of moments after the start (delays) and reports the longest
// (max-s) and the mean (mean-s) time from the signal to the exit, and the
// longest CPU time the process used in that time (max-cpu-s: on a shared
// machine the wall time is several times the CPU), over the runs the
// signal reached before they ended on their own. The state is put
// back before each run. Figures: docs/PERFORMANCE.md (Interrupting a large
// plan).
//
//	go test ./internal/command -run '^$' -bench BenchmarkInterruptLatency -benchtime 1x -timeout 60m
func BenchmarkInterruptLatency(b *testing.B) {
	bin := buildNeonform(b)
	dir := b.TempDir()
	const entries = 250_000
	writePlanBenchGone(b, dir, entries, entries)
	_, env := benchEmulator(b, dir, emulator.Options{RatePerMinute: -1})
	cfg := filepath.Join(dir, "cfg")
	stateFile := filepath.Join(cfg, "neonform.state.json")
	saved := filepath.Join(dir, "saved.json")
	if out, err := runNeonform(bin, env, "plan", "-out", saved, cfg); err != nil {
		b.Fatalf("the saved plan: %v\n%.2000s", err, out)
	}
	before, err := os.ReadFile(stateFile)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"plan", []string{"plan", "-out", filepath.Join(dir, "plan.json"), cfg}},
		{"apply-saved-plan", []string{"apply", saved, cfg}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var longest, total, longestCPU time.Duration
			runs := 0
			for b.Loop() {
				for delay := time.Second; delay <= 128*time.Second; delay *= 2 {
					if err := os.WriteFile(stateFile, before, 0o600); err != nil {
						b.Fatal(err)
					}
					took, cpu, ended := interruptAfter(b, bin, env, c.args, delay)
					if ended {
						break // it ended before the signal: later ones would too
					}
					longest, total, runs, longestCPU = max(longest, took), total+took, runs+1, max(longestCPU, cpu)
					fmt.Fprintf(os.Stderr, "%s: signal at %v, exit %v later (%v of CPU)\n", c.name, delay, took, cpu)
				}
			}
			b.ReportMetric(longest.Seconds(), "max-s")
			b.ReportMetric(longestCPU.Seconds(), "max-cpu-s")
			b.ReportMetric(total.Seconds()/float64(max(runs, 1)), "mean-s")
		})
	}
}

// interruptAfter runs neonform with args, sends SIGINT after delay, and
// returns how long it took to exit from then, and the CPU time it used
// meanwhile; ended when it had exited (or said it was done) before the
// signal.
func interruptAfter(b *testing.B, bin string, env, args []string, delay time.Duration) (took, cpu time.Duration, ended bool) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		fmt.Fprintf(os.Stderr, "neonform %s ended before the signal:\n%.1000s\n", strings.Join(args, " "), out.String())
		return 0, 0, true
	case <-time.After(delay):
	}
	sent, cpuBefore := time.Now(), procCPU(cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGINT)
	<-done
	took = time.Since(sent)
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime() - cpuBefore
	text := out.String()
	if !strings.Contains(strings.ToLower(text), "nothing was changed") && !strings.Contains(text, "Interrupted") {
		fmt.Fprintf(os.Stderr, "neonform %s, signalled at %v, said:\n%.1000s\n", strings.Join(args, " "), delay, text[max(0, len(text)-1000):])
		return took, cpu, true // the signal came as it ended, or after its steps started
	}
	return took, cpu, false
}

// procCPU is the CPU time (user and system) process pid has used so far,
// from /proc (in clock ticks of 10 ms).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which ends with ")": state is
	// the first, utime the 12th and stime the 13th.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// runNeonform runs neonform to its end.
func runNeonform(bin string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("neonform %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}
