package apply

import (
	"fmt"
	"time"

	"github.com/neonform/neonform/diff"
)

// Report is what an apply did: every step of the plan is in exactly one of
// Done, Failed and NotAttempted, each list in plan order.
type Report struct {
	Done         []StepResult
	Failed       []StepResult
	NotAttempted []StepResult
	Counts
	Elapsed time.Duration
	// Interrupted: the context was cancelled (SIGINT, SIGTERM) before every
	// step had run.
	Interrupted bool
	// LockLost, when set, is why the apply stopped sending: it no longer held
	// the state lock (a *LockLostError).
	LockLost error
}

// StepResult is one step and what became of it.
type StepResult struct {
	Step diff.Step
	// EndpointID is the endpoint the step acted on; for a create, the new one.
	EndpointID string
	// Err is why the step failed (the service's error, or the failed
	// operation's), or why it was not attempted.
	Err     error
	Elapsed time.Duration
	// Adopted: a create whose answer was lost found the endpoint it had made
	// (by name and type) instead of creating it again.
	Adopted bool
	// AlreadyGone: a delete found the endpoint already deleted (204 or 404).
	AlreadyGone bool
	// Unchanged: an update whose answer was lost found its change already
	// in place.
	Unchanged bool
	// StillRunning: the call succeeded but the wait for its operations was
	// cut short by an interrupt; the service finishes them on its own.
	StillRunning bool
	// Recorded: the state records the step's effect (always for Done; for a
	// failed create, when the endpoint was made but its start failed).
	Recorded bool

	skipped bool // not attempted
}

// Counts are the changes done, as a person counts them: a replacement (its
// create and its delete) counts once, as replaced.
type Counts struct {
	Created   int
	Updated   int
	Replaced  int
	Deleted   int
	Restarted int // updates that restarted an active compute
	Suspended int // updates that suspended an active compute
	// StateOnly counts the steps that changed only the state (adoptions,
	// renames, forgets a removed block asked for).
	StateOnly int
	// ForgotGone counts the computes forgotten because their endpoint was
	// gone (diff.Step.Gone).
	ForgotGone int
	// Defaults counts the projects whose compute defaults changed.
	Defaults int
}

// IncompleteError is the error of an apply that ran but did not do every
// step: some failed, or it was interrupted. The Report returned with it says
// which; the caller shows it (internal/command/views.Summary) and exits non-zero.
type IncompleteError struct {
	Failed, NotAttempted int
	Interrupted          bool
}

func (e *IncompleteError) Error() string {
	if e.Interrupted {
		return fmt.Sprintf("apply was interrupted: %d steps failed, %d not attempted; run plan to see what remains", e.Failed, e.NotAttempted)
	}
	return fmt.Sprintf("apply did not finish: %d steps failed, %d not attempted; run plan to see what remains", e.Failed, e.NotAttempted)
}
