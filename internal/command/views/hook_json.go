package views

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// An apply is shown twice: in prose to people (hook_ui.go) and, with apply
// -json, as events for programs, one JSON object a line (ApplyJSON), so a
// deployment tool can follow an apply without parsing prose. Both are
// apply.Hooks. docs/plan-format.md ("Apply events") documents every type and
// field; within a format version, fields and types are only added.

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
	// Suggestions: the commands Error advises, as they are to be run.
	Suggestions []suggest.JSON `json:"suggestions,omitempty"`
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

// jsonEvents returns a writer of events that writes each one to w as one
// line of JSON. It is safe for concurrent use: lines do not interleave.
func jsonEvents(w io.Writer) func(Event) {
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

// planSummaryEvent is the plan_summary of p.
func planSummaryEvent(p *diff.Plan, message string) Event {
	s := p.Summary
	n := len(p.Steps)
	return Event{Type: EventPlanSummary, Message: message, Summary: &s, Steps: &n}
}

// serviceWaitEvent is the service_wait of a wait the client begins.
func serviceWaitEvent(w api.Wait) Event {
	return Event{Type: EventServiceWait, Message: w.String() + "...", WaitingFor: w.What, WaitSeconds: seconds(w.For)}
}

// finishedEvent is the apply_finished of an apply that ran (rep) or was
// refused before its first step (rep nil, err its reason).
func finishedEvent(rep *apply.Report, err error, x suggest.Context) Event {
	if rep == nil {
		e := Event{Type: EventApplyFinished, Status: StatusError, Counts: &EventCounts{}, Message: "Nothing was changed."}
		if err != nil {
			err = Refusal(err) // a stale plan's facts, worded
			e.Error, e.Suggestions = x.Complete(err.Error(), suggest.Of(err)), x.JSON(suggest.Of(err))
			e.Diagnostics = diagnosticsOf(err, x)
			e.Message = strings.TrimSuffix(firstLine(e.Error), ":")
			if !strings.Contains(strings.ToLower(e.Message), "nothing was changed") {
				e.Message = "Nothing was changed: " + e.Message
			}
		}
		return e
	}
	c := rep.Counts
	e := Event{Type: EventApplyFinished, Status: StatusComplete, Message: firstLine(Summary(rep, x)), Elapsed: seconds(rep.Elapsed),
		Counts: &EventCounts{Created: c.Created, Updated: c.Updated, Replaced: c.Replaced, Deleted: c.Deleted, Restarted: c.Restarted,
			Suspended: c.Suspended, StateOnly: c.StateOnly, ForgotGone: c.ForgotGone, Defaults: c.Defaults, StepsDone: len(rep.Done), StepsFailed: len(rep.Failed), NotAttempted: len(rep.NotAttempted)}}
	if len(rep.Failed) > 0 || len(rep.NotAttempted) > 0 || rep.Interrupted {
		e.Status = StatusIncomplete
	}
	if err != nil {
		e.Error, e.Suggestions = x.Complete(err.Error(), suggest.Of(err)), x.JSON(suggest.Of(err))
	}
	for _, s := range rep.NotAttempted {
		e.NotAttempted = append(e.NotAttempted, EventSkipped{Step: s.Step.ID, Address: s.Step.Address, Reason: s.Err.Error()})
	}
	return e
}

// diagnosticsOf is the diagnostics err carries (a *diag.Error), as JSON in
// the run's context x; nil for an error that is only a sentence.
func diagnosticsOf(err error, x suggest.Context) []diag.JSON {
	var de *diag.Error
	if !errors.As(err, &de) {
		return nil
	}
	return de.Diagnostics.ToJSONIn(x)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func seconds(d time.Duration) *float64 {
	s := d.Round(time.Millisecond).Seconds()
	return &s
}

// ApplyJSON is the apply.Hook of apply -json: every event, one JSON object a
// line (jsonEvents), from the plan_summary to the apply_finished.
type ApplyJSON struct {
	write    func(Event)
	finished atomic.Bool
	// context is the run's, with which an end writes the commands it
	// suggests, as the same text for people does; asked at the end, when
	// the run knows which variables are sensitive.
	context func() suggest.Context
	// planFile is the plan file applied, named by diagnostics about its
	// computes; "" when apply plans itself.
	planFile string

	mu      sync.Mutex
	labels  map[string]string // the projects' labels by id
	waiting map[string]bool   // projects whose wait for others' operations was told
}

// NewApplyJSON writes the events of an apply of planFile ("" when apply
// plans itself) to w; context is the run's, for the commands an end
// suggests.
func NewApplyJSON(w io.Writer, context func() suggest.Context, planFile string) *ApplyJSON {
	return &ApplyJSON{write: jsonEvents(w), context: context, planFile: planFile, waiting: map[string]bool{}}
}

// Ended reports whether the apply_finished was written.
func (j *ApplyJSON) Ended() bool { return j.finished.Load() }

// send writes e, noting when the stream is finished.
func (j *ApplyJSON) send(e Event) {
	if e.Type == EventApplyFinished {
		j.finished.Store(true)
		for i := range e.Diagnostics {
			if e.Diagnostics[i].Address != "" && e.Diagnostics[i].PlanFile == "" {
				e.Diagnostics[i].PlanFile = j.planFile
			}
		}
	}
	j.write(e)
}

// ServiceWait is the service_wait of a wait the client begins.
func (j *ApplyJSON) ServiceWait(w api.Wait) { j.send(serviceWaitEvent(w)) }

func (j *ApplyJSON) PlanChecked(p *diff.Plan) {
	j.mu.Lock()
	j.labels = labelsOf(p)
	j.mu.Unlock()
	if len(p.Steps) == 0 {
		j.send(planSummaryEvent(p, "The plan has no changes: nothing to do."))
		return
	}
	j.send(planSummaryEvent(p, "Applying the plan: "+view.ShortSummary(p)))
}

func (j *ApplyJSON) Begin(func() (time.Duration, bool)) {}

func (j *ApplyJSON) StepStarted(s *diff.Step, ch *diff.Change, idleNow bool) {
	e := j.stepEvent(EventStepStarted, s, startLine(s, ch, idleNow))
	if ch != nil && ch.Disruption != diff.None {
		e.Disruption = ch.Disruption.String()
	}
	j.send(e)
}

func (j *ApplyJSON) StepNote(s *diff.Step, n apply.Note) {
	j.send(j.stepEvent(EventStepNote, s, noteLine(s, n)))
}

func (j *ApplyJSON) StepEnded(res *apply.StepResult) { j.send(j.endEvent(res, endLine(res))) }

func (j *ApplyJSON) StepFailedBeforeStart(res *apply.StepResult) {
	j.send(j.endEvent(res, failedBeforeStartLine(res)))
}

// OthersRunning tells a wait once, when it starts.
func (j *ApplyJSON) OthersRunning(projectID string, n int) {
	j.mu.Lock()
	told, label := j.waiting[projectID], j.labels[projectID]
	j.waiting[projectID] = true
	j.mu.Unlock()
	if told {
		return
	}
	w := othersWait{project: label, running: n}
	j.send(Event{Type: EventWaiting, Message: w.waiting() + "...", ProjectID: projectID, Project: label, Operations: n})
}

func (j *ApplyJSON) OthersDone(projectID string) {
	j.mu.Lock()
	delete(j.waiting, projectID)
	j.mu.Unlock()
}

func (j *ApplyJSON) StateSaved(where string, serial int64) {
	j.send(Event{Type: EventStateSaved, Message: fmt.Sprintf("saved the state (%s) at serial %d", where, serial), Serial: serial})
}

func (j *ApplyJSON) Warning(error) {}

func (j *ApplyJSON) Finished(rep *apply.Report, err error) {
	j.send(finishedEvent(rep, err, j.context()))
}

// stepEvent is an event about step s.
func (j *ApplyJSON) stepEvent(t EventType, s *diff.Step, message string) Event {
	j.mu.Lock()
	project := j.labels[s.ProjectID]
	j.mu.Unlock()
	return Event{Type: t, Message: message, Step: s.ID, Address: s.Address, Action: s.Kind.String(), EndpointID: s.EndpointID,
		ProjectID: s.ProjectID, Project: project}
}

// endEvent is the step_done or step_failed of res.
func (j *ApplyJSON) endEvent(res *apply.StepResult, message string) Event {
	e := j.stepEvent(EventStepDone, &res.Step, message)
	e.EndpointID = res.EndpointID
	e.Elapsed = seconds(res.Elapsed)
	if res.Err != nil {
		e.Type, e.Error = EventStepFailed, res.Err.Error()
	}
	return e
}
