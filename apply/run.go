package apply

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// run is one apply in progress.
type run struct {
	plan *diff.Plan
	c    *api.Client
	opts Options
	rec  *recorder
	// hooks are told what the run does (Options.Hooks).
	hooks hooks
	// budget decides how many projects run at once, from what the run
	// learns of its steps.
	budget *budget
	// atStart are the endpoint ids of each project as apply found them: an
	// endpoint a lost create may have made is one that was not there.
	atStart map[string]map[string]bool
	// hosts are the host names of the endpoints apply found, by id, which
	// the state records for people (a step's answer has the newest).
	hosts map[string]string
	// deletes are the endpoints this plan deletes.
	deletes map[string]bool
	// changes by address, for the counts and the hooks.
	changes map[string]*diff.Change
	// busy are the projects whose endpoints, as apply found them, show
	// operations running (operationsRun): apply waits for those before
	// their first change.
	busy map[string]bool
	// lockChecks are the checks that the run still holds the state lock.
	lockChecks *lockChecks
	// learned is closed once the run's read of operations (learn) returned.
	learned chan struct{}
	// results by index in plan.Steps; each project writes only its own.
	results []*StepResult

	mu sync.Mutex
	// left is how many steps of each project have not ended (eta.go).
	left map[string]int
	// lockLost is why the run no longer holds the state lock, once it
	// found out: from then on it sends nothing.
	lockLost error
}

func newRun(p *diff.Plan, st *state.State, live map[string][]api.Endpoint, opts Options) *run {
	r := &run{
		plan:       p,
		c:          opts.Client,
		opts:       opts,
		atStart:    map[string]map[string]bool{},
		hosts:      map[string]string{},
		deletes:    map[string]bool{},
		busy:       map[string]bool{},
		learned:    make(chan struct{}),
		lockChecks: newLockChecks(),
		changes:    map[string]*diff.Change{},
		results:    make([]*StepResult, len(p.Steps)),
	}
	for id, eps := range live {
		ids := make(map[string]bool, len(eps))
		for _, ep := range eps {
			ids[ep.ID] = true
			r.hosts[ep.ID] = ep.Host
		}
		r.atStart[id] = ids
		r.busy[id] = operationsRun(eps)
	}
	for _, s := range p.Steps {
		if s.Kind == diff.StepDelete {
			r.deletes[s.EndpointID] = true
		}
	}
	for i := range p.Changes {
		r.changes[p.Changes[i].Address] = &p.Changes[i]
	}
	r.budget = newBudget(opts.Client, opts.Parallelism)
	r.rec = newRecorder(context.Background(), opts.State, st)
	r.hooks = opts.Hooks
	r.rec.saved = func(serial int64) { r.hooks.StateSaved(opts.State.Describe(), serial) }
	return r
}

// execute runs every project's steps, as many projects at once as the
// budget says (at most Parallelism), and reports what became of each step.
func (r *run) execute(ctx context.Context) *Report {
	byProject := map[string][]int{}
	var order []string
	for i, s := range r.plan.Steps {
		if _, ok := byProject[s.ProjectID]; !ok {
			order = append(order, s.ProjectID)
		}
		byProject[s.ProjectID] = append(byProject[s.ProjectID], i)
	}
	r.left = make(map[string]int, len(byProject))
	for _, s := range r.plan.Steps {
		if s.Kind != diff.StepState {
			r.left[s.ProjectID]++
		}
	}
	go r.learn(ctx, order, byProject)
	defer r.awaitLearned(context.Background()) // it ends with ctx: nothing of the run outlives it
	r.hooks.Begin(r.timeLeft)
	// Projects take their turn in plan order, so that with -parallelism 1 an
	// apply is one deterministic sequence.
	var wg sync.WaitGroup
	for n, id := range order {
		if !r.budget.begin(ctx) {
			for _, rest := range order[n:] {
				r.skip(byProject[rest], errInterrupted)
			}
			wg.Wait()
			return r.report(true)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer r.budget.end()
			r.project(ctx, byProject[id])
		}()
	}
	wg.Wait()
	return r.report(ctx.Err() != nil)
}

var (
	errInterrupted = errors.New("not attempted: the apply was interrupted before it")
	errStateFailed = errors.New("not attempted: the apply stopped because the state could not be written")
)

// LockLostError is why a step was not attempted: the run found, before
// it, that it no longer held the state lock.
type LockLostError struct{ Err error }

func (e *LockLostError) Error() string {
	return "not attempted: the apply stopped because " + e.Err.Error()
}

func (e *LockLostError) Unwrap() error { return e.Err }

// checkLock makes sure the run still holds the state lock before it changes
// anything: a run whose lock was removed (force-unlock) races whoever took it
// next, so it stops for good, in every project, and sends nothing more.
// Projects that ask at once share a check that began after they asked
// (lockChecks).
func (r *run) checkLock(ctx context.Context) error {
	r.mu.Lock()
	lost := r.lockLost
	r.mu.Unlock()
	if lost != nil {
		return lost
	}
	err := r.lockChecks.check(func() error { return r.opts.State.CheckLock(context.WithoutCancel(ctx)) })
	if err == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lockLost == nil {
		r.lockLost = &LockLostError{Err: err}
	}
	return r.lockLost
}

// project runs the steps of one project in plan order, one at a time: the
// service runs one operation chain per project, and each step waits for the
// operations of the one before. The first failure stops the project.
func (r *run) project(ctx context.Context, steps []int) {
	id := r.plan.Steps[steps[0]].ProjectID
	// Operations started outside this run (a console click, another tool, a
	// compute scaling to zero) make the service refuse a change with 423
	// while they run: the client waits them out, and the hooks are told.
	others := func(n int) {
		if n == 0 {
			r.hooks.OthersDone(id)
			return
		}
		r.hooks.OthersRunning(id, n)
	}
	ctx = api.WatchLocked(ctx, others)
	// A project whose endpoints showed operations running is waited for
	// before its first change, rather than answered 423 for certain; the
	// rest are not read for it (a request a project, docs/apply.md).
	idle := !r.busy[id]
	for n := 0; n < len(steps); n++ {
		i := steps[n]
		s := &r.plan.Steps[i]
		switch {
		case ctx.Err() != nil:
			r.skip(steps[n:], errInterrupted)
			return
		case r.rec.failed():
			r.skip(steps[n:], errStateFailed)
			return
		}
		if err := r.checkLock(ctx); err != nil {
			r.skip(steps[n:], err)
			return
		}
		if s.Kind == diff.StepState {
			ended, failed := r.stateSteps(ctx, r.stateRun(steps[n:]))
			if failed != nil {
				r.skip(steps[n+ended:], stoppedBy(failed))
				return
			}
			n += ended - 1
			continue
		}
		if !idle {
			err := r.c.WatchProjectIdle(ctx, s.ProjectID, others)
			r.hooks.OthersDone(s.ProjectID)
			if err != nil {
				if ctx.Err() != nil {
					r.skip(steps[n:], errInterrupted)
					return
				}
				r.results[i] = &StepResult{Step: *s, EndpointID: s.EndpointID,
					Err: fmt.Errorf("waiting for the project's running operations to finish before changing it: %w", err)}
				r.hooks.StepFailedBeforeStart(r.results[i])
				r.ended(s)
				r.skip(steps[n+1:], stoppedBy(s))
				return
			}
			idle = true
		}
		res := r.step(ctx, s)
		r.budget.stepEnded(res.Elapsed)
		r.results[i] = res
		r.ended(s)
		if res.Err != nil {
			r.skip(steps[n+1:], stoppedBy(s))
			return
		}
	}
}

func stoppedBy(s *diff.Step) error {
	return fmt.Errorf("not attempted: step %d (%s) of the same project failed before it", s.ID, s.Address)
}

// skip records steps of one project as not attempted.
func (r *run) skip(steps []int, why error) {
	for _, i := range steps {
		s := &r.plan.Steps[i]
		r.results[i] = &StepResult{Step: *s, EndpointID: s.EndpointID, Err: why, skipped: true}
		r.ended(s)
	}
}

// callContext is the context of a call that changes something: it outlives
// an interrupt by InterruptGrace, so a call in flight gets its answer (and
// the state records it) instead of being cut off after it was sent.
func (r *run) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	call, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(r.opts.InterruptGrace, cancel)
		context.AfterFunc(call, func() { t.Stop() })
	})
	return call, func() {
		stop()
		cancel()
	}
}

// report sorts the results into done, failed and not attempted, in plan
// order, and counts the changes done.
func (r *run) report(interrupted bool) *Report {
	// Most steps are done: one allocation of them, not a growing copy of
	// 250,000 steps (seconds of memmove at the state's limit).
	rep := &Report{Done: make([]StepResult, 0, len(r.results))}
	for i, res := range r.results {
		if res == nil { // cannot happen: every step ends in one of the three
			res = &StepResult{Step: r.plan.Steps[i], Err: errInterrupted, skipped: true}
		}
		switch {
		case res.skipped:
			rep.NotAttempted = append(rep.NotAttempted, *res)
			if errors.Is(res.Err, errInterrupted) {
				rep.Interrupted = true
			}
		case res.Err != nil:
			rep.Failed = append(rep.Failed, *res)
		default:
			rep.Done = append(rep.Done, *res)
		}
	}
	rep.Interrupted = rep.Interrupted || interrupted && len(rep.NotAttempted)+len(rep.Failed) > 0
	r.mu.Lock()
	rep.LockLost = r.lockLost
	r.mu.Unlock()
	rep.Counts = r.count(rep.Done)
	return rep
}

// count counts the changes done as a person does: a replacement whose create
// and delete were both done counts once, as replaced.
func (r *run) count(done []StepResult) Counts {
	var c Counts
	doneSteps := map[string]int{}
	for _, d := range done {
		if d.Step.Kind != diff.StepState {
			doneSteps[d.Step.Address]++
		}
	}
	apiSteps := map[string]int{}
	for _, s := range r.plan.Steps {
		if s.Kind != diff.StepState {
			apiSteps[s.Address]++
		}
	}
	replaced := map[string]bool{}
	for _, d := range done {
		s := &d.Step
		ch := r.changes[s.Address]
		switch {
		case s.Gone:
			c.ForgotGone++
		case s.Kind == diff.StepState:
			c.StateOnly++
		case s.Kind == diff.StepDefaults:
			c.Defaults++
		case ch != nil && ch.Action == diff.Replace && doneSteps[s.Address] >= apiSteps[s.Address]:
			if !replaced[s.Address] {
				replaced[s.Address] = true
				c.Replaced++
			}
		case s.Kind == diff.StepCreate:
			c.Created++
		case s.Kind == diff.StepDelete:
			c.Deleted++
		default:
			c.Updated++
			if ch != nil && ch.Active && ch.Disruption == diff.Restart {
				c.Restarted++
			}
			if ch != nil && ch.Active && ch.Disruption == diff.Suspend {
				c.Suspended++
			}
		}
	}
	return c
}
