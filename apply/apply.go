package apply

import (
	"context"
	"errors"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// DefaultInterruptGrace is Options.InterruptGrace's default.
const DefaultInterruptGrace = 30 * time.Second

// Options say how to carry out a plan.
type Options struct {
	// Client talks to the service the plan was made against. All projects
	// share it, and with it its one rate limiter.
	Client *api.Client
	// State is where the state lives; apply locks it for the whole run:
	// the projects the plan changes when it locks projects one by one
	// (Postgres), else the whole state (locks.go).
	State state.Backend
	// Locked: the caller took the state lock already (apply DIR takes it
	// before it plans, but for a backend that locks projects) and releases
	// it; Apply only checks that it is held.
	Locked bool
	// Parallelism is how many projects change at once, at most: 0 = as
	// many as keep the client's request budget busy while their operations
	// run, up to 64 (budget.go). It is also how many are read at once
	// before the first change: 0 = api.DefaultParallelReads.
	Parallelism int
	// Hooks are told what the apply does, as it does it (hook.go): the
	// views render them, for people and for apply -json. None: apply says
	// nothing.
	Hooks []Hook
	// Who holds the lock, for others' error messages; "" = the OS user.
	Who string
	// LockTimeout is how long to wait for a state lock another run holds
	// (state.LockWaiting): 0 = fail at once. LockWaiting, when set, is told
	// once when the wait starts, with who holds the lock.
	LockTimeout time.Duration
	LockWaiting func(held *state.LockedError)
	// InterruptGrace is how long a call in flight may take to finish once
	// ctx is cancelled: 0 = 30s.
	InterruptGrace time.Duration
	// PlanRead, when set, is the live endpoints of the plan's projects by
	// project id, as the plan was made from them moments ago in this same
	// run, with nobody reviewing it in between (apply DIR -auto-approve,
	// destroy -auto-approve): Apply checks the plan against them instead of
	// reading those projects again. A changed project missing from it is read
	// again, and so is one whose adoption needs a host it lacks (fresh.go).
	// nil: every changed project is read again, since time passed (a saved
	// plan, or one a person said yes to).
	PlanRead map[string][]api.Endpoint
	// Policy is what the configuration says now of the plan's computes
	// (diff.PolicyOf): Apply refuses a plan that permits what it forbids,
	// before any call (diff.HoldTo). nil holds the plan to nothing but
	// itself and the state: for a caller that has no configuration.
	Policy *diff.Policy
}

// Apply carries out p: it takes the state lock, refuses a plan that no longer
// matches the stored state or the live endpoints (*StaleError, nothing
// changed), then runs the steps and writes the state after every one.
//
// When every step was done it returns the Report and nil. When some step
// failed or ctx was cancelled first, it returns the Report and an
// *IncompleteError. Any other error (the plan is damaged, the lock is held,
// the plan is stale, the live endpoints cannot be read) means nothing was
// changed, and the Report is nil.
//
// Options.Hooks are told PlanChecked before the first step and, however
// Apply returns, Finished last.
func Apply(ctx context.Context, p *diff.Plan, opts Options) (rep *Report, err error) {
	start := time.Now()
	if opts.Client == nil || opts.State == nil {
		return nil, errors.New("apply: Options.Client and Options.State are required")
	}
	tell := hooks(opts.Hooks)
	defer func() { tell.Finished(rep, err) }()
	if opts.Parallelism < 0 {
		opts.Parallelism = 0
	}
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = DefaultInterruptGrace
	}
	if p == nil {
		return nil, damaged(&diff.Plan{}, errors.New("there is no plan"))
	}
	if !opts.Locked {
		unlock, err := lock(ctx, p, opts)
		if err != nil {
			return nil, err
		}
		defer func() {
			if err := unlock(); err != nil {
				tell.Warning(err)
			}
		}()
	}
	st, err := opts.State.Read(ctx)
	if err != nil {
		return nil, err
	}
	current, facts := checkState(p, st)
	if len(facts) > 0 {
		return nil, &StaleError{State: opts.State.Describe(), Facts: facts}
	}
	// The steps to carry out are those the plan's changes derive, never the
	// file's own: they must be the same, or the plan was edited.
	steps, err := diff.VerifyContext(ctx, current, st)
	if err != nil {
		return nil, unverified(ctx, p, err)
	}
	if len(steps) == 0 {
		// Only now: a file whose steps were taken out has none, but its
		// changes and the state make some, and Verify refused it.
		tell.PlanChecked(p)
		return &Report{Elapsed: time.Since(start)}, nil
	}
	// A plan file edited to loosen a guard, or a guard tightened since the
	// plan: refused before any call.
	if err := diff.HoldTo(p, st, steps, opts.Policy); err != nil {
		return nil, loosened(p, err)
	}
	verified := *p
	verified.Steps = steps
	// Only the projects the plan changes are read again: a project without
	// steps is not touched, so what happened there since does not matter.
	live, err := liveNow(ctx, opts, st, changedProjects(p, steps), steps)
	if err != nil {
		return nil, err
	}
	if facts := checkLive(p, live); len(facts) > 0 {
		return nil, &StaleError{State: opts.State.Describe(), Facts: facts}
	}
	if facts, err := checkDefaults(ctx, opts.Client, p, steps); err != nil || len(facts) > 0 {
		if err != nil {
			return nil, err
		}
		return nil, &StaleError{State: opts.State.Describe(), Facts: facts}
	}

	r := newRun(&verified, st, live, opts)
	tell.PlanChecked(&verified)
	rep = r.execute(ctx)
	rep.Elapsed = time.Since(start)
	if len(rep.Failed) > 0 || len(rep.NotAttempted) > 0 {
		return rep, &IncompleteError{Failed: len(rep.Failed), NotAttempted: len(rep.NotAttempted), Interrupted: rep.Interrupted}
	}
	return rep, nil
}

// unverified is why Verify refused p: the plan is damaged, or the run was
// interrupted while it checked (nothing was changed: ctx's error).
func unverified(ctx context.Context, p *diff.Plan, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return damaged(p, err)
}
