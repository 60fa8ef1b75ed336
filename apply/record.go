package apply

import (
	"context"
	"fmt"
	"sync"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// recorder keeps the state of one apply and writes it after every change.
//
// Projects run in parallel and their steps often end together, so writes
// are group-committed: a change waits for a write that includes it, and one
// write covers every change made while the previous write ran. Each caller
// still returns only once its own change is stored, so "a step is done" always
// means "and the state says so", while ten projects finishing at once cost two
// writes, not ten in a row.
type recorder struct {
	backend state.Backend
	// ctx is never cancelled: an interrupted apply must still record the
	// steps that were done.
	ctx context.Context

	mu      sync.Mutex
	cond    *sync.Cond
	st      *state.State // every change recorded so far, written or not
	changes uint64       // changes made to st
	written uint64       // changes stored by the last successful write
	writing bool
	// err is the first write that failed; after it nothing more is recorded,
	// and the apply stops starting steps (see run.stopped).
	err    error
	writes int
}

func newRecorder(ctx context.Context, backend state.Backend, st *state.State) *recorder {
	r := &recorder{backend: backend, ctx: context.WithoutCancel(ctx), st: st}
	r.cond = sync.NewCond(&r.mu)
	return r
}

// StateWriteError is a step that was done in the service but could not be
// recorded in the state.
type StateWriteError struct {
	Err error
}

func (e *StateWriteError) Error() string {
	return fmt.Sprintf("done in the service, but writing the state failed: %v. The next plan finds the endpoint again "+
		"(by its name, or as the branch's read_write compute) and records it", e.Err)
}

func (e *StateWriteError) Unwrap() error { return e.Err }

// record makes change to the state and returns once a write that includes it
// has succeeded. change reports whether it changed anything; when it did not,
// nothing is written.
func (r *recorder) record(change func(st *state.State) (bool, error)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return &StateWriteError{Err: r.err}
	}
	changed, err := change(r.st)
	if err != nil {
		return err
	}
	if !changed {
		return nil
	}
	r.changes++
	mine := r.changes
	for r.written < mine && r.err == nil {
		if r.writing {
			r.cond.Wait()
			continue
		}
		r.writing = true
		upTo := r.changes
		snapshot := r.st.Clone()
		r.mu.Unlock()
		err := r.backend.Write(r.ctx, snapshot) // sets snapshot.Serial when it succeeds
		r.mu.Lock()
		r.writing = false
		if err != nil {
			r.err = err
		} else {
			r.st.Serial = snapshot.Serial
			r.written = upTo
			r.writes++
		}
		r.cond.Broadcast()
	}
	if r.written >= mine {
		return nil
	}
	return &StateWriteError{Err: r.err}
}

// failed reports whether a write failed, so that no new step starts.
func (r *recorder) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil
}

// claimed reports whether the state gives endpointID to some address.
func (r *recorder) claimed(endpointID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.st.ByEndpoint(endpointID)
	return ok
}

// recordStep records a successful step: what the plan says to record
// (diff.Step.UpdateState), and, for a delete, that no address keeps the
// deleted endpoint (a replacement's old endpoint waits under a deposed
// address; see depose).
func recordStep(s *diff.Step, createdID string) func(st *state.State) (bool, error) {
	return func(st *state.State) (bool, error) {
		if err := s.UpdateState(st, createdID); err != nil {
			return false, err
		}
		if s.Kind == diff.StepDelete {
			for addr, c := range st.Computes {
				if c != nil && c.EndpointID == s.EndpointID {
					delete(st.Computes, addr)
				}
			}
		}
		return true, nil
	}
}

// deposedAddress is where a replacement's old endpoint is kept in the state
// between the create of its successor and its own delete, so that the state
// always names every endpoint this apply is responsible for.
func deposedAddress(addr, endpointID string) string {
	return addr + "[deposed:" + endpointID + "]"
}

// deposal is a replacement's old endpoint moved out of its address: the
// create that replaces it records the new endpoint there. Without it, a crash
// between the create and the delete of the old endpoint would leave the old
// one in no state entry: running, and no longer managed. Under its deposed
// address the next plan deletes it. prevent_destroy is cleared there: the
// plan being applied already decided to delete it.
type deposal struct {
	addr, to string
	was      state.Compute
}

// depose moves the entry at a create's address out of the way when it holds
// an endpoint that this plan deletes later (a replacement that creates first).
func depose(s *diff.Step, deletes map[string]bool, out **deposal) func(st *state.State) (bool, error) {
	return func(st *state.State) (bool, error) {
		c := st.Computes[s.Address]
		if s.Kind != diff.StepCreate || c == nil || !deletes[c.EndpointID] {
			return false, nil
		}
		d := &deposal{addr: s.Address, to: deposedAddress(s.Address, c.EndpointID), was: *c}
		moved := *c
		moved.PreventDestroy = false
		delete(st.Computes, d.addr)
		st.Computes[d.to] = &moved
		*out = d
		return true, nil
	}
}

// undepose puts a deposed entry back as it was, when the create that was to
// replace it certainly made nothing.
func (d *deposal) undepose() func(st *state.State) (bool, error) {
	return func(st *state.State) (bool, error) {
		if st.Computes[d.to] == nil || st.Computes[d.addr] != nil {
			return false, nil
		}
		delete(st.Computes, d.to)
		was := d.was
		st.Computes[d.addr] = &was
		return true, nil
	}
}
