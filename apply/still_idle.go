package apply

import (
	"context"
	"fmt"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// A compute whose block says lifecycle.allow_restart = false is interrupted
// only while idle. The plan checked that when it was made, but a saved plan
// may be applied after the compute woke: so apply reads the endpoint again
// just before the step that restarts, suspends or deletes it (see docs/apply.md,
// "How it runs").

// interrupts reports whether step s is the one that interrupts the compute
// of change ch under that guard: its update, or the delete of its old
// endpoint in a replacement.
func interrupts(s *diff.Step, ch *diff.Change) bool {
	if ch == nil || !ch.RestartIdleOnly {
		return false
	}
	switch s.Kind {
	case diff.StepUpdate:
		return ch.Disruption >= diff.Restart
	case diff.StepDelete:
		return s.EndpointID == ch.EndpointID
	}
	return false
}

// checkStillIdle reads the endpoint of a step that interrupts a compute
// which may be interrupted only while idle, and refuses the step when it is
// active now. idleNow reports that it was read and found idle.
func (r *run) checkStillIdle(ctx context.Context, s *diff.Step, ch *diff.Change) (idleNow bool, err error) {
	if !interrupts(s, ch) {
		return false, nil
	}
	ep, err := r.c.GetEndpoint(ctx, s.ProjectID, s.EndpointID)
	switch {
	case api.IsNotFound(err):
		return false, nil // gone: nothing left to interrupt, and the step says so
	case err != nil:
		return false, fmt.Errorf("not sent: %s has lifecycle.allow_restart = false, and reading %s to check that it is still idle failed: %w", s.Address, s.EndpointID, err)
	case diff.Active(ep.CurrentState):
		return false, &WokenError{Address: s.Address, EndpointID: s.EndpointID, State: ep.CurrentState, Disruption: ch.Disruption}
	}
	return true, nil
}

// WokenError is a step refused because the compute it would interrupt has
// lifecycle.allow_restart = false and has become active since the plan.
type WokenError struct {
	Address, EndpointID string
	State               api.EndpointState
	Disruption          diff.Disruption
}

func (e *WokenError) Error() string {
	return fmt.Sprintf("not sent: %s has lifecycle.allow_restart = false and was idle when planned, but %s is %s now, "+
		"and this step (%s) would drop its connections. Plan again when it is idle, or set allow_restart = true to accept the interruption",
		e.Address, e.EndpointID, e.State, e.Disruption)
}
