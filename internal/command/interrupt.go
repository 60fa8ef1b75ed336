package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/neonform/neonform/internal/textsafe"
)

// stopSignals are the ways a person or a machine asks neonform to stop:
// Ctrl-C, CI cancelling a job, the terminal closing. apply treats them alike.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// interrupts is what watchInterrupts knows: whether steps may be running,
// which decides what an interrupt means.
type interrupts struct {
	applying atomic.Bool
}

type interruptsKey struct{}

// watchInterrupts gives apply its two-step interrupt: the first stop signal
// cancels ctx (no new step starts; those in flight finish and are
// recorded), a second one exits at once. Before the first step, cancelling
// ctx is all it does: the prompt or the planning gives up, and apply says
// nothing was changed (afterInterrupt).
func watchInterrupts(ctx context.Context, stderr io.Writer) (context.Context, func()) {
	state := &interrupts{}
	ctx, cancel := context.WithCancel(context.WithValue(ctx, interruptsKey{}, state))
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case sig := <-sigs:
				if n == 1 {
					// Cancel first: whoever sees this message may rely on ctx being done.
					cancel()
					if state.applying.Load() {
						fmt.Fprintf(stderr, "\nReceived %s: no new step starts; the steps in flight finish and are recorded in the state. Interrupt again to exit at once.\n", sig)
					}
					continue
				}
				fmt.Fprintf(stderr, "\nReceived %s again: exiting at once. The state records every step that ended; a step in flight may not be "+
					"recorded (the next plan finds its endpoint again). The state lock stays behind: the next run says how to remove it.\n", sig)
				os.Exit(1)
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// startApplying marks that steps may run from now on: an interrupt then
// lets them finish, and apply reports what was done.
func startApplying(ctx context.Context) {
	if state, ok := ctx.Value(interruptsKey{}).(*interrupts); ok {
		state.applying.Store(true)
	}
}

// afterInterrupt gives an interrupted apply its ending: exit status 1, also
// when the signal came after the last step (the report above says that
// everything was done), and "nothing was changed" when it came before the
// first. An apply that was not interrupted ends with err as it is.
func afterInterrupt(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	state, _ := ctx.Value(interruptsKey{}).(*interrupts)
	applying := state != nil && state.applying.Load()
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		return err // a report or a refusal has been said already
	case err == nil && applying:
		return &exitError{code: 1, msg: "Interrupted after the last step had started: every step was done and is recorded in the state (see above)."}
	case err == nil || errors.Is(err, context.Canceled):
		return &exitError{code: 1, msg: "Apply cancelled: nothing was changed."}
	}
	return err
}

// fallbackWriter writes to w until a write fails (standard output closed:
// apply -auto-approve | head -2), then to fallback, once saying why. neonform
// ignores SIGPIPE (main.go), so the failed write returns an error instead of
// killing the process in the middle of a step.
type fallbackWriter struct {
	mu       sync.Mutex
	w        io.Writer
	fallback io.Writer
	failed   bool
}

func (f *fallbackWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.failed {
		n, err := f.w.Write(p)
		if err == nil {
			return n, nil
		}
		f.failed = true
		fmt.Fprintf(f.fallback, "\nneonform: standard output failed (%v); apply goes on, and prints the rest here.\n", err)
	}
	return f.fallback.Write(p)
}

// planInterrupted gives a plan stopped by a stop signal its ending: exit
// status 1 and what happened, not the context's error ("context canceled").
// A plan changes nothing, so nothing was. Any other error is returned as it is.
func planInterrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return &exitError{code: 1, msg: "Plan cancelled: nothing was changed."}
	}
	return err
}

// renderInterrupted is planInterrupted for an interrupt while the plan is
// shown, after it was saved to savedTo ("" when it was not): the file is
// whole, and the message says so.
func renderInterrupted(ctx context.Context, err error, savedTo string) error {
	if savedTo == "" || ctx.Err() == nil || !errors.Is(err, context.Canceled) {
		return planInterrupted(ctx, err)
	}
	return &exitError{code: 1, msg: fmt.Sprintf("Plan cancelled while it was shown: nothing was changed; the whole plan is saved in %s.", textsafe.Terminal(savedTo))}
}
