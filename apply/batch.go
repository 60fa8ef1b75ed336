package apply

import (
	"context"
	"time"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// A run of consecutive state-only steps of a project (forgetting a compute
// whose endpoint is gone, adopting one that needs no call, a rename) is
// recorded with one write of the state, not one a step: writing a state of
// n entries after each of n steps is quadratic, and a plan that forgets
// 40,000 gone computes did not finish in 15 minutes (docs/PERFORMANCE.md).
//
// It is safe because such a step changes nothing in the service: until the
// run's write lands, the service and the stored state are exactly as they
// were after the step before the run (a call, recorded right after it
// succeeded, as ever), a state an apply killed at that moment would have
// left too. The next plan derives the run's steps again from that state and
// the live endpoints, which they did not touch: the endpoint is still gone,
// still unclaimed and matching, the moved block still there. So a crash
// mid-run loses nothing but the repeat of work the next apply does again,
// and the run is always written before the next step that calls the
// service starts, which may depend on it.

// stateRun is the run of state-only steps at the start of steps (indexes
// into the plan's steps, in the project's order).
func (r *run) stateRun(steps []int) []int {
	n := 0
	for n < len(steps) && r.plan.Steps[steps[n]].Kind == diff.StepState {
		n++
	}
	return steps[:n]
}

// stateSteps carries out a run of state-only steps of one project and
// records them with one write. It stops gathering at an interrupt (the
// caller skips the rest) and returns how many of batch ended and the step
// that failed, if one did: its change could not be made, or the write
// failed (then none of the run is stored, and its first step fails).
func (r *run) stateSteps(ctx context.Context, batch []int) (ended int, failed *diff.Step) {
	start := time.Now()
	changes := make([]func(st *state.State) (bool, error), 0, len(batch))
	for n, i := range batch {
		if n > 0 && ctx.Err() != nil {
			batch = batch[:n]
			break
		}
		s := &r.plan.Steps[i]
		r.hooks.StepStarted(s, r.changes[s.Address], false)
		changes = append(changes, recordStep(s, "", r.hosts[s.EndpointID], r.deletes))
	}
	done, err := r.rec.recordAll(changes)
	elapsed := time.Since(start)
	for n, i := range batch {
		s := &r.plan.Steps[i]
		res := &StepResult{Step: *s, EndpointID: s.EndpointID, Elapsed: elapsed}
		if n >= done {
			if err == nil { // cannot happen: every change before the failing one is done
				break
			}
			res.Err = hideSensitive(err, s)
			failed = s
		}
		res.Recorded = res.Err == nil
		r.results[i] = res
		r.ended(s)
		r.hooks.StepEnded(res)
		if failed != nil {
			return n + 1, failed
		}
	}
	return len(batch), nil
}
