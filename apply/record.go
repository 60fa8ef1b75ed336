package apply

import (
	"context"
	"fmt"
	"sync"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// recorder keeps the state of one apply and writes it after every step that
// calls the service, and once after each run of state-only steps (batch.go).
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
	// saved, when set, is told the serial of each successful write, one
	// write at a time.
	saved func(serial int64)
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
	_, err := r.recordAll([]func(st *state.State) (bool, error){change})
	return err
}

// recordAll makes the changes to the state in order, up to the first that
// fails, and returns once one write that includes all it made has
// succeeded: done is how many were made and stored, err the failing
// change's error (its changes before it are stored), or the write's (then
// done is 0: none of them is stored). A run of state-only steps is recorded
// so (batch.go): one write, not one a step.
func (r *recorder) recordAll(changes []func(st *state.State) (bool, error)) (done int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return 0, &StateWriteError{Err: r.err}
	}
	changed := false
	for _, change := range changes {
		c, cerr := change(r.st)
		if cerr != nil {
			err = cerr
			break
		}
		done++
		changed = changed || c
	}
	if !changed {
		return done, err
	}
	r.changes++
	if werr := r.waitWritten(r.changes); werr != nil {
		return 0, werr
	}
	return done, err
}

// waitWritten returns once a write of the changes up to mine has succeeded,
// writing them itself unless another write is under way; r.mu is held.
func (r *recorder) waitWritten(mine uint64) error {
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
		if err == nil && r.saved != nil {
			r.saved(snapshot.Serial)
		}
		r.mu.Lock()
		r.writing = false
		if err != nil {
			r.err = err
		} else {
			// A state read when there was none joins the one another run
			// stored first, under project locks (state.Postgres.Write).
			r.st.Lineage, r.st.Serial = snapshot.Lineage, snapshot.Serial
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
// (diff.Step.UpdateState), after deposing an endpoint this plan deletes that
// its address still holds (see depose; a create deposes before its call),
// and, for a delete, that no address keeps the deleted endpoint. host is the
// endpoint's host as the service last reported it ("" when the step learnt
// none: the state keeps the one it had).
func recordStep(s *diff.Step, createdID, host string, deletes map[string]bool) func(st *state.State) (bool, error) {
	return func(st *state.State) (bool, error) {
		if s.Kind != diff.StepCreate {
			var d *deposal
			if _, err := depose(s, deletes, &d)(st); err != nil {
				return false, err
			}
		}
		if host == "" && s.Record != nil {
			// The plan's record does not carry the host: keep the one the
			// state had for this endpoint, under whichever address.
			if addr, ok := st.ByEndpoint(s.Record.EndpointID); ok && s.Record.EndpointID != "" {
				host = st.Computes[addr].Host
			}
		}
		if err := s.UpdateState(st, createdID); err != nil {
			return false, err
		}
		if c := st.Computes[s.Address]; s.Record != nil && c != nil && host != "" {
			c.Host = host
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

// deposal is an entry moved out of its address because a step records
// another endpoint there while this plan still deletes the one it holds: the
// create of a replacement (create first, delete after), or a compute taking
// back the endpoint an interrupted replacement left deposed. Without it, a
// crash between that step and the delete would leave the old endpoint in no
// state entry: running, and no longer managed. Under its deposed address
// (state.DeposedAddress) the next plan finds it: it deletes it, or gives it
// back to its compute when the configuration describes it again. The entry
// keeps its prevent_destroy.
type deposal struct {
	addr, to string
	was      state.Compute
}

// depose moves the entry at a step's address out of the way when it holds
// an endpoint that this plan deletes later and that is not the step's own.
func depose(s *diff.Step, deletes map[string]bool, out **deposal) func(st *state.State) (bool, error) {
	return func(st *state.State) (bool, error) {
		c := st.Computes[s.Address]
		if s.Record == nil || c == nil || !deletes[c.EndpointID] || c.EndpointID == s.EndpointID {
			return false, nil
		}
		d := &deposal{addr: s.Address, to: state.DeposedAddress(s.Address, c.EndpointID), was: *c}
		delete(st.Computes, d.addr)
		moved := *c
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
