package apply

import (
	"time"

	"github.com/neonform/neonform/diff"
)

// Hook is told what an apply does, as it does it, as Terraform's engine
// tells its hooks: apply reports facts and words nothing. The views render
// them (internal/command/views: hook_ui.go for people, hook_json.go for
// apply -json). Several goroutines call a hook at once: each guards its own
// state.
type Hook interface {
	// PlanChecked: the plan is checked (not stale, not edited) and p, with
	// the steps Verify derived, is about to run; p has no steps when there
	// is nothing to do. Called at most once, before any step.
	PlanChecked(p *diff.Plan)
	// Begin: the steps start now. timeLeft is how long the rest is expected
	// to take, once the run has learned enough to say (false before).
	Begin(timeLeft func() (time.Duration, bool))
	// StepStarted: step s of change ch (nil for none) begins. idleNow: apply
	// read the compute just before and found it idle
	// (lifecycle.allow_restart = false).
	StepStarted(s *diff.Step, ch *diff.Change, idleNow bool)
	// StepNote: something happened during step s.
	StepNote(s *diff.Step, n Note)
	// StepEnded: a step ended, done or failed (res.Err).
	StepEnded(res *StepResult)
	// StepFailedBeforeStart: a step failed while waiting to begin.
	StepFailedBeforeStart(res *StepResult)
	// OthersRunning: n operations started outside this run still run in
	// project id, which apply waits for before changing it; said again as
	// their number changes.
	OthersRunning(projectID string, n int)
	// OthersDone: the wait for project id, if there was one, is over.
	OthersDone(projectID string)
	// StateSaved: the state (where, as state.Backend.Describe says) was
	// written at serial.
	StateSaved(where string, serial int64)
	// Warning: something went wrong that changes nothing of the outcome
	// (the lock could not be released).
	Warning(err error)
	// Finished: the apply is over, however Apply returns: rep is what it
	// did (nil when it was refused before its first step), err its error.
	// The last call.
	Finished(rep *Report, err error)
}

// NoteKind is what happened during a step that its start and end do not
// say: an answer lost, and what apply did about it.
type NoteKind int

const (
	// NoteCreateFound: the answer to a create was lost, but it made
	// Note.EndpointID, which is used instead of creating another.
	NoteCreateFound NoteKind = iota + 1
	// NoteCreateResent: the answer to a create was lost and it made
	// nothing: the create is sent again.
	NoteCreateResent
	// NoteUpdateInPlace: the answer to an update was lost, but the change
	// is in place: it is not sent again.
	NoteUpdateInPlace
	// NoteUpdateResent: the answer to an update was lost and the change is
	// not in place: it is sent again.
	NoteUpdateResent
	// NoteDefaultsResent: the answer to the change of a project's defaults
	// was lost: it is sent again (it sets the same values).
	NoteDefaultsResent
	// NoteDeleteResent: the answer to a delete was lost: it is sent again
	// (deleting twice is harmless).
	NoteDeleteResent
)

// Note is one thing that happened during a step, as facts.
type Note struct {
	Kind NoteKind
	// EndpointID is the endpoint a lost create made (NoteCreateFound).
	EndpointID string
}

// hooks tells every hook of Options.Hooks, in order.
type hooks []Hook

func (hs hooks) PlanChecked(p *diff.Plan) {
	for _, h := range hs {
		h.PlanChecked(p)
	}
}

func (hs hooks) Begin(timeLeft func() (time.Duration, bool)) {
	for _, h := range hs {
		h.Begin(timeLeft)
	}
}

func (hs hooks) StepStarted(s *diff.Step, ch *diff.Change, idleNow bool) {
	for _, h := range hs {
		h.StepStarted(s, ch, idleNow)
	}
}

func (hs hooks) StepNote(s *diff.Step, n Note) {
	for _, h := range hs {
		h.StepNote(s, n)
	}
}

func (hs hooks) StepEnded(res *StepResult) {
	for _, h := range hs {
		h.StepEnded(res)
	}
}

func (hs hooks) StepFailedBeforeStart(res *StepResult) {
	for _, h := range hs {
		h.StepFailedBeforeStart(res)
	}
}

func (hs hooks) OthersRunning(projectID string, n int) {
	for _, h := range hs {
		h.OthersRunning(projectID, n)
	}
}

func (hs hooks) OthersDone(projectID string) {
	for _, h := range hs {
		h.OthersDone(projectID)
	}
}

func (hs hooks) StateSaved(where string, serial int64) {
	for _, h := range hs {
		h.StateSaved(where, serial)
	}
}

func (hs hooks) Warning(err error) {
	for _, h := range hs {
		h.Warning(err)
	}
}

func (hs hooks) Finished(rep *Report, err error) {
	for _, h := range hs {
		h.Finished(rep, err)
	}
}
