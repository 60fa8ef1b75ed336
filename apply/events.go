package apply

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
)

// An apply tells what it does twice: in prose to people (progress.go) and,
// when Options.Events is set, as events for programs: `apply -json` writes
// them one JSON object a line (JSONEvents), so a deployment tool can follow
// an apply without parsing prose. docs/plan-format.md ("Apply events")
// documents every type and field; within a format version, fields and types
// are only added.

// EventType is what an event says happened.
type EventType string

const (
	// EventPlanSummary: the plan is checked (not stale, not edited) and its
	// steps are about to run; the first event.
	EventPlanSummary EventType = "plan_summary"
	// EventStepStarted: a step begins.
	EventStepStarted EventType = "step_started"
	// EventWaiting: apply waits for operations started outside this run,
	// before a project's first change or within a step refused 423.
	EventWaiting EventType = "waiting"
	// EventServiceWait: the service asked apply to wait longer than a few
	// seconds (Retry-After, a 429 or 503, running operations).
	EventServiceWait EventType = "service_wait"
	// EventStepNote: something happened during a step (a lost answer).
	EventStepNote EventType = "step_note"
	// EventStepDone: a step ended, done and recorded.
	EventStepDone EventType = "step_done"
	// EventStepFailed: a step failed (or failed to begin).
	EventStepFailed EventType = "step_failed"
	// EventStateSaved: the state was written, with a new serial.
	EventStateSaved EventType = "state_saved"
	// EventApplyFinished: the apply is over; the last event.
	EventApplyFinished EventType = "apply_finished"
)

// Statuses of an EventApplyFinished.
const (
	// StatusComplete: every step was done (or there was none).
	StatusComplete = "complete"
	// StatusIncomplete: some step failed or was not attempted; the state
	// records what was done.
	StatusIncomplete = "incomplete"
	// StatusError: nothing was changed (a stale or damaged plan, a held lock,
	// an error before the first step).
	StatusError = "error"
)

// Event is one thing an apply did. Fields that do not concern its Type are
// left out of its JSON.
type Event struct {
	Type    EventType `json:"type"`
	Time    time.Time `json:"@timestamp"`
	Message string    `json:"@message"`         // the line people read for it
	Status  string    `json:"status,omitempty"` // apply_finished: complete, incomplete or error

	// Steps (step_*): which one, as the plan file numbers and names it.
	Step       int    `json:"step,omitempty"`
	Address    string `json:"address,omitempty"`
	Action     string `json:"action,omitempty"` // the step's kind: create, update, delete, state-only
	Disruption string `json:"disruption,omitempty"`
	EndpointID string `json:"endpoint_id,omitempty"`
	ProjectID  string `json:"project_id,omitempty"`
	Project    string `json:"project,omitempty"` // the project block's label

	Operations int      `json:"operations,omitempty"`      // waiting: still running
	Elapsed    *float64 `json:"elapsed_seconds,omitempty"` // step_done, step_failed, apply_finished
	Error      string   `json:"error,omitempty"`           // step_failed, apply_finished
	Serial     int64    `json:"serial,omitempty"`          // state_saved

	// service_wait: what apply waits for, and how long.
	WaitingFor  string   `json:"waiting_for,omitempty"`
	WaitSeconds *float64 `json:"wait_seconds,omitempty"`

	// plan_summary
	Summary *diff.Summary `json:"summary,omitempty"`
	Steps   *int          `json:"steps,omitempty"`

	// apply_finished
	Counts       *EventCounts   `json:"counts,omitempty"`
	NotAttempted []EventSkipped `json:"not_attempted,omitempty"`
	// Diagnostics: what a refusal names (a configuration error, an edited
	// or stale plan, a damaged state), as validate -json writes them.
	Diagnostics []diag.JSON `json:"diagnostics,omitempty"`
}

// EventCounts are an apply_finished's counts: the changes done, as the
// human summary counts them, and the steps by outcome.
type EventCounts struct {
	Created      int `json:"created"`
	Updated      int `json:"updated"`
	Replaced     int `json:"replaced"`
	Deleted      int `json:"deleted"`
	Restarted    int `json:"restarted"`
	Suspended    int `json:"suspended"`
	StateOnly    int `json:"state_only"`
	ForgotGone   int `json:"forgot_gone"`
	Defaults     int `json:"defaults"`
	StepsDone    int `json:"steps_done"`
	StepsFailed  int `json:"steps_failed"`
	NotAttempted int `json:"steps_not_attempted"`
}

// EventSkipped is a step that was not attempted, and why.
type EventSkipped struct {
	Step    int    `json:"step"`
	Address string `json:"address"`
	Reason  string `json:"reason"`
}

// JSONEvents returns an Options.Events that writes each event to w as one
// line of JSON. It is safe for concurrent use: lines do not interleave.
func JSONEvents(w io.Writer) func(Event) {
	var mu sync.Mutex
	return func(e Event) {
		if e.Time.IsZero() {
			e.Time = time.Now()
		}
		e.Time = e.Time.UTC()
		line, err := json.Marshal(e)
		if err != nil {
			return // cannot happen: every field marshals
		}
		mu.Lock()
		defer mu.Unlock()
		w.Write(append(line, '\n'))
	}
}

// PlanSummaryEvent is the plan_summary of p.
func PlanSummaryEvent(p *diff.Plan, message string) Event {
	s := p.Summary
	n := len(p.Steps)
	return Event{Type: EventPlanSummary, Message: message, Summary: &s, Steps: &n}
}

// ServiceWaitEvent is the service_wait of a wait the client begins.
func ServiceWaitEvent(w api.Wait) Event {
	return Event{Type: EventServiceWait, Message: w.String() + "...", WaitingFor: w.What, WaitSeconds: seconds(w.For)}
}

// FinishedEvent is the apply_finished of an apply that ran (rep) or was
// refused before its first step (rep nil, err its reason).
func FinishedEvent(rep *Report, err error) Event {
	if rep == nil {
		e := Event{Type: EventApplyFinished, Status: StatusError, Counts: &EventCounts{}, Message: "Nothing was changed."}
		if err != nil {
			e.Error = err.Error()
			e.Diagnostics = diagnosticsOf(err)
			e.Message = strings.TrimSuffix(firstLine(e.Error), ":")
			if !strings.Contains(strings.ToLower(e.Message), "nothing was changed") {
				e.Message = "Nothing was changed: " + e.Message
			}
		}
		return e
	}
	c := rep.Counts
	e := Event{Type: EventApplyFinished, Status: StatusComplete, Message: firstLine(rep.Summary()), Elapsed: seconds(rep.Elapsed),
		Counts: &EventCounts{Created: c.Created, Updated: c.Updated, Replaced: c.Replaced, Deleted: c.Deleted, Restarted: c.Restarted,
			Suspended: c.Suspended, StateOnly: c.StateOnly, ForgotGone: c.ForgotGone, Defaults: c.Defaults, StepsDone: len(rep.Done), StepsFailed: len(rep.Failed), NotAttempted: len(rep.NotAttempted)}}
	if len(rep.Failed) > 0 || len(rep.NotAttempted) > 0 || rep.Interrupted {
		e.Status = StatusIncomplete
	}
	if err != nil {
		e.Error = err.Error()
	}
	for _, s := range rep.NotAttempted {
		e.NotAttempted = append(e.NotAttempted, EventSkipped{Step: s.Step.ID, Address: s.Step.Address, Reason: s.Err.Error()})
	}
	return e
}

// diagnosticsOf is the diagnostics err carries (a *diag.Error), as JSON; nil
// for an error that is only a sentence.
func diagnosticsOf(err error) []diag.JSON {
	var de *diag.Error
	if !errors.As(err, &de) {
		return nil
	}
	return de.Diagnostics.ToJSON()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func seconds(d time.Duration) *float64 {
	s := d.Round(time.Millisecond).Seconds()
	return &s
}

// stepEvent is an event about step s.
func (p *progress) stepEvent(t EventType, s *diff.Step, message string) Event {
	return Event{Type: t, Message: message, Step: s.ID, Address: s.Address, Action: s.Kind.String(), EndpointID: s.EndpointID,
		ProjectID: s.ProjectID, Project: p.labels[s.ProjectID]}
}

// endEvent is the step_done or step_failed of res.
func (p *progress) endEvent(res *StepResult, message string) Event {
	e := p.stepEvent(EventStepDone, &res.Step, message)
	e.EndpointID = res.EndpointID
	e.Elapsed = seconds(res.Elapsed)
	if res.Err != nil {
		e.Type, e.Error = EventStepFailed, res.Err.Error()
	}
	return e
}

// emit sends e to Options.Events, if set.
func (p *progress) emit(e Event) {
	if p.events != nil {
		p.events(e)
	}
}

// emit sends e to Events, if set.
func (o Options) emit(e Event) {
	if o.Events != nil {
		o.Events(e)
	}
}
