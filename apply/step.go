package apply

import (
	"context"
	"fmt"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// maxAttempts bounds how often a mutation whose answer was lost is tried
// again (after looking at what it did).
const maxAttempts = 5

// step carries out one step that calls the service and records it (a
// state-only one is recorded with the others of its run: batch.go).
func (r *run) step(ctx context.Context, s *diff.Step) *StepResult {
	start := time.Now()
	res := &StepResult{Step: *s, EndpointID: s.EndpointID}
	ch := r.changes[s.Address]
	idleNow, err := r.checkStillIdle(ctx, s, ch)
	if err != nil {
		res.Err, res.Elapsed = err, time.Since(start)
		r.hooks.StepFailedBeforeStart(res)
		return res
	}
	r.hooks.StepStarted(s, ch, idleNow)
	switch s.Kind {
	case diff.StepCreate:
		r.create(ctx, s, res)
	case diff.StepUpdate:
		r.update(ctx, s, res)
	case diff.StepDelete:
		r.delete(ctx, s, res)
	case diff.StepDefaults:
		r.defaults(ctx, s, res)
	}
	if res.Err == nil {
		res.Recorded = true
	}
	res.Err = hideSensitive(res.Err, s)
	res.Elapsed = time.Since(start)
	r.hooks.StepEnded(res)
	return res
}

// send makes the step's call until it is answered. When an answer is lost
// after the request went out (api.IsAmbiguous), the call may or may not have
// been carried out: lost looks at the service and says whether it was
// (done), and only if not is the call sent again, once the run has made sure
// it still holds the state lock. lostAny reports whether some answer was lost.
func (r *run) send(ctx context.Context, s *diff.Step, call func() (*api.EndpointOperations, error), lost func() (done bool, err error)) (out *api.EndpointOperations, lostAny bool, err error) {
	for attempt := 1; ; attempt++ {
		out, err = call()
		if err == nil || !api.IsAmbiguous(err) || attempt == maxAttempts {
			return out, lostAny, err
		}
		lostAny = true
		done, lerr := lost()
		if lerr != nil {
			return nil, true, fmt.Errorf("%w; looking at what it did failed too: %v", err, lerr)
		}
		if done {
			return nil, true, nil
		}
		r.settle(ctx, s)
		if lerr := r.checkLock(ctx); lerr != nil {
			return nil, true, fmt.Errorf("%w; not sent again: %v", err, lerr)
		}
	}
}

// create sends the plan's POST. When its answer is lost, it looks on the
// branch for the endpoint it may have made, by the name every create sets,
// and adopts it instead of creating a second one.
func (r *run) create(ctx context.Context, s *diff.Step, res *StepResult) {
	var dep *deposal
	if err := r.rec.record(depose(s, r.deletes, &dep)); err != nil {
		res.Err = err
		return
	}
	call, cancel := r.callContext(ctx)
	defer cancel()

	var found *api.Endpoint
	var refused error
	out, _, err := r.send(call, s, func() (*api.EndpointOperations, error) {
		return r.c.CreateEndpoint(call, s.ProjectID, *s.Create)
	}, func() (bool, error) {
		ep, err := r.findCreated(call, s)
		switch {
		case err != nil:
			return false, err
		case ep != nil:
			if refused = r.notTheCreated(s, ep); refused != nil {
				return true, nil // something was made: never create a second
			}
			found = ep
			r.hooks.StepNote(s, Note{Kind: NoteCreateFound, EndpointID: ep.ID})
			return true, nil
		}
		r.hooks.StepNote(s, Note{Kind: NoteCreateResent})
		return false, nil
	})
	if refused != nil {
		res.Err = refused
		return
	}
	if err != nil {
		res.Err = err
		if dep != nil && !api.IsAmbiguous(err) {
			// Certainly not carried out (refused, or never sent): nothing
			// was made, and the old endpoint goes back where it was.
			if uerr := r.rec.record(dep.undepose()); uerr != nil {
				res.Err = fmt.Errorf("%w; then putting %s back in the state failed: %v", err, s.Address, uerr)
			}
		}
		return
	}
	var created api.Endpoint
	var ops []api.Operation
	switch {
	case found != nil:
		created, res.Adopted = *found, true
		s = adoptedStep(s, found)
	case out != nil:
		created, ops = out.Endpoint, out.Operations
	}
	if created.ID == "" {
		res.Err = fmt.Errorf("%s %s: the service's answer names no endpoint, so it cannot be recorded", s.Method, s.Path)
		return
	}
	res.EndpointID = created.ID
	r.finish(ctx, s, res, created.ID, created.Host, ops, res.Adopted)
}

// finish records a step whose call was carried out, then waits for its
// operations: those of its answer or, when what the call did was found
// after its answer was lost, every one of the project's.
func (r *run) finish(ctx context.Context, s *diff.Step, res *StepResult, createdID, host string, ops []api.Operation, answerLost bool) {
	answered := time.Now()
	if host == "" {
		host = r.hosts[s.EndpointID]
	}
	if err := r.rec.record(recordStep(s, createdID, host, r.deletes)); err != nil {
		res.Err = err
		return
	}
	res.Recorded = true
	r.awaitLearned(ctx)
	if answerLost {
		r.wait(ctx, s, res, r.c.WaitProjectIdle(ctx, s.ProjectID))
		return
	}
	// The operations run from the answer on, not from when the state was
	// written: the first poll is counted from the answer.
	r.wait(ctx, s, res, r.c.WaitOperationsAfter(ctx, s.ProjectID, ops, time.Since(answered)))
}

// update sends the plan's PATCH. When its answer is lost, it reads the
// endpoint: if every value is in place by the attribute table's equality
// rules, the change was made and is never sent again (a second restart);
// otherwise it is sent again, which sets the same values.
func (r *run) update(ctx context.Context, s *diff.Step, res *StepResult) {
	call, cancel := r.callContext(ctx)
	defer cancel()
	want := diff.AppliedValues(s.Record)
	out, lost, err := r.send(call, s, func() (*api.EndpointOperations, error) {
		return r.c.UpdateEndpoint(call, s.ProjectID, s.EndpointID, *s.Update)
	}, func() (bool, error) {
		ep, err := r.c.GetEndpoint(call, s.ProjectID, s.EndpointID)
		if err != nil {
			return false, err
		}
		if diff.InPlace(ep, want) {
			res.Unchanged = true
			r.hooks.StepNote(s, Note{Kind: NoteUpdateInPlace})
			return true, nil
		}
		r.hooks.StepNote(s, Note{Kind: NoteUpdateResent})
		return false, nil
	})
	if err != nil {
		res.Err = err
		return
	}
	var ops []api.Operation
	host := ""
	if out != nil {
		ops, host = out.Operations, out.Endpoint.Host
	}
	r.finish(ctx, s, res, "", host, ops, lost)
}

// defaults sends the plan's PATCH of a project's compute defaults. It sets
// every value the block manages, so one whose answer was lost is simply
// sent again: it sets the same values.
func (r *run) defaults(ctx context.Context, s *diff.Step, res *StepResult) {
	call, cancel := r.callContext(ctx)
	defer cancel()
	var ops []api.Operation
	_, lost, err := r.send(call, s, func() (*api.EndpointOperations, error) {
		var err error
		_, ops, err = r.c.UpdateProjectDefaults(call, s.ProjectID, *s.Defaults)
		return nil, err
	}, func() (bool, error) {
		r.hooks.StepNote(s, Note{Kind: NoteDefaultsResent})
		return false, nil
	})
	if err != nil {
		res.Err = err
		return
	}
	r.finish(ctx, s, res, "", "", ops, lost)
}

// delete sends the plan's DELETE. An endpoint already gone (204 or 404)
// counts as deleted; a delete whose answer was lost is simply sent again,
// since deleting twice is harmless.
func (r *run) delete(ctx context.Context, s *diff.Step, res *StepResult) {
	call, cancel := r.callContext(ctx)
	defer cancel()
	out, lost, err := r.send(call, s, func() (*api.EndpointOperations, error) {
		return r.c.DeleteEndpoint(call, s.ProjectID, s.EndpointID)
	}, func() (bool, error) {
		r.hooks.StepNote(s, Note{Kind: NoteDeleteResent})
		return false, nil
	})
	gone := err == nil && out == nil || api.IsNotFound(err) // 204, 404
	if gone && !lost {
		res.AlreadyGone = true
	}
	if err != nil && !gone {
		res.Err = err
		return
	}
	var ops []api.Operation
	if out != nil {
		ops = out.Operations
	}
	r.finish(ctx, s, res, "", "", ops, false)
}

// settle waits until the project has no running operation before a call is
// sent again: the lost one may have started some, and a mutation sent now
// would be answered 423.
func (r *run) settle(ctx context.Context, s *diff.Step) {
	_ = r.c.WaitProjectIdle(ctx, s.ProjectID) // if it fails, the resend meets the 423, which the client waits out
}

// wait ends a step whose call succeeded and is recorded: it is done when its
// operations finished, failed when one failed, and done but still running
// when an interrupt cut the waiting short (the service finishes them alone).
func (r *run) wait(ctx context.Context, s *diff.Step, res *StepResult, err error) {
	switch {
	case err == nil:
	case ctx.Err() != nil:
		res.StillRunning = true
	default:
		res.Err = err
	}
}
