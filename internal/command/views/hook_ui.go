package views

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/textsafe"
)

// DefaultStillEvery is how often, in a log, a step that waits long says it
// is still waiting.
const DefaultStillEvery = 10 * time.Second

// NewApplyUI is the apply.Hook that shows an apply to people on w; live: w
// is a terminal. stillEvery: 0 = DefaultStillEvery.
func NewApplyUI(w io.Writer, live bool, stillEvery time.Duration) apply.Hook {
	if stillEvery <= 0 {
		stillEvery = DefaultStillEvery
	}
	return newProgress(w, live, stillEvery, 0)
}

// progress prints what the apply does: one line when a step starts and one
// when it ends, each naming the compute, so that lines of projects running in
// parallel can be told apart in a CI log. On a terminal (live) a status line
// at the bottom shows the steps in flight and for how long; elsewhere a step
// that waits long says so every StillEvery.
type progress struct {
	mu         sync.Mutex
	w          io.Writer
	live       bool
	stillEvery time.Duration
	total      int
	ended      int
	running    map[int]*inFlight      // by step id
	others     map[string]*othersWait // by project id (progress_others.go)
	shown      bool                   // the status line is on screen
	stop       chan struct{}
	stopOnce   sync.Once
	done       sync.WaitGroup
	// labels name the projects by id, as the configuration does.
	labels map[string]string
	// timeLeft, when set, is how long the rest of the apply is expected
	// to take, once the run learned enough to say (eta.go).
	timeLeft func() (time.Duration, bool)
}

type inFlight struct {
	step  *diff.Step
	since time.Time
	still time.Duration // the next "still ..." line is due at this age
}

func newProgress(w io.Writer, live bool, stillEvery time.Duration, total int) *progress {
	return &progress{w: w, live: live, stillEvery: stillEvery, total: total, running: map[int]*inFlight{}, others: map[string]*othersWait{}, stop: make(chan struct{})}
}

// begin starts the ticker that redraws the status line or says "still".
func (p *progress) begin() {
	StartTicker(p.live, p.stillEvery, p.stop, &p.done, func(time.Time) { p.tick() })
}

// finish stops the ticker and clears the status line.
func (p *progress) finish() {
	p.stopOnce.Do(func() { close(p.stop) })
	p.done.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
}

// idleNow: apply read the compute just before the step and found it idle
// (lifecycle.allow_restart = false), so the words say what is true now.
func (p *progress) start(s *diff.Step, ch *diff.Change, idleNow bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.Kind == diff.StepState {
		return // done at once: its end line says it all
	}
	p.running[s.ID] = &inFlight{step: s, since: time.Now(), still: p.stillEvery}
	p.line(startLine(s, ch, idleNow))
}

func (p *progress) end(res *apply.StepResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, res.Step.ID)
	p.ended++
	p.line(endLine(res))
}

// failedBeforeStart reports a step that failed while waiting to begin.
func (p *progress) failedBeforeStart(res *apply.StepResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended++
	p.line(failedBeforeStartLine(res))
}

// note says something that happened during a step.
func (p *progress) note(s *diff.Step, n apply.Note) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line(noteLine(s, n))
}

// line prints one permanent line, keeping the status line below it. The
// line quotes names, ids and the service's errors, so it is shown escaped
// (internal/textsafe); apply -json's event keeps the text as it is, for the
// encoder (hook_json.go).
func (p *progress) line(text string) {
	p.clearStatus()
	fmt.Fprintln(p.w, textsafe.Terminal(text))
	p.drawStatus()
}

func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		p.clearStatus()
		p.drawStatus()
		return
	}
	for _, id := range slices.Sorted(maps.Keys(p.running)) {
		f := p.running[id]
		if age := time.Since(f.since); age >= f.still {
			fmt.Fprintf(p.w, "%s: still %s, %s elapsed\n", textsafe.Terminal(f.step.Address), verbing(f.step.Kind), age.Round(time.Second))
			f.still = age + p.stillEvery // no burst of lines after a pause
		}
	}
	p.othersStill()
}

func (p *progress) clearStatus() {
	if p.live && p.shown {
		io.WriteString(p.w, EraseLine)
		p.shown = false
	}
}

func (p *progress) drawStatus() {
	if !p.live || len(p.running)+len(p.others) == 0 {
		return
	}
	parts := p.othersStatus()
	for _, id := range slices.Sorted(maps.Keys(p.running)) {
		f := p.running[id]
		parts = append(parts, fmt.Sprintf("%s %s %s", f.step.Address, verbing(f.step.Kind), formatElapsed(time.Since(f.since))))
	}
	// Escaped before it is cut, so that it stays on one line of the screen.
	status := textsafe.Terminal(fmt.Sprintf("[%d/%d done%s] %s", p.ended, p.total, p.leftWords(), strings.Join(parts, ", ")))
	if r := []rune(status); len(r) > 120 {
		status = string(r[:117]) + "..."
	}
	io.WriteString(p.w, status)
	p.shown = true
}

// leftWords is the status line's estimate of the time left: ", about 40s
// left", or nothing before the run learned enough to say.
func (p *progress) leftWords() string {
	if p.timeLeft == nil {
		return ""
	}
	d, ok := p.timeLeft()
	if !ok {
		return ""
	}
	return ", about " + formatLeft(d) + " left"
}

// formatLeft rounds an estimate as people say one: to the second under a
// minute, to ten seconds under ten minutes, to the minute past that.
func formatLeft(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(1, int(d.Round(time.Second).Seconds())))
	case d < 10*time.Minute:
		d = d.Round(10 * time.Second)
	default:
		d = d.Round(time.Minute)
	}
	h, m, sec := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	out := ""
	if h > 0 {
		out = fmt.Sprintf("%dh", h)
	}
	if m > 0 {
		out += fmt.Sprintf("%dm", m)
	}
	if sec > 0 {
		out += fmt.Sprintf("%ds", sec)
	}
	return out
}

// startWords is what a step is about to do: "updating ep-x (restart: active
// now, its connections drop)".
func startWords(s *diff.Step, ch *diff.Change, idleNow bool) string {
	switch s.Kind {
	case diff.StepCreate:
		what := "a read replica"
		if s.Record.Type == api.EndpointTypeReadWrite {
			what = "a read_write compute"
		}
		return fmt.Sprintf("creating %s named %s on branch %s", what, s.QuotedName(), s.Record.BranchID)
	case diff.StepUpdate:
		return "updating " + s.EndpointID + disruptionWords(ch, idleNow)
	case diff.StepDelete:
		if idleNow {
			return "deleting " + s.EndpointID + " (idle now, no connections to drop)"
		}
		return "deleting " + s.EndpointID
	case diff.StepDefaults:
		return "changing the project's defaults (for computes created from now on; no compute restarts)"
	}
	return "recording in the state"
}

// disruptionWords says what an update does to clients: as the plan did, or
// as apply found the compute just before the call (idleNow).
func disruptionWords(ch *diff.Change, idleNow bool) string {
	if ch == nil {
		return ""
	}
	var what string
	switch ch.Disruption {
	case diff.Restart:
		what = "restart"
	case diff.Suspend:
		what = "suspend"
	default:
		return ""
	}
	if idleNow {
		return fmt.Sprintf(" (%s: idle now, no connections to drop)", what)
	}
	if ch.Active {
		return fmt.Sprintf(" (%s: active at plan time, its connections drop)", what)
	}
	return fmt.Sprintf(" (%s: idle at plan time, no connections to drop)", what)
}

// endWords is how a step ended: "created ep-x after 1.2s".
func endWords(res *apply.StepResult) string {
	s, took := &res.Step, formatElapsed(res.Elapsed)
	if res.Err != nil {
		msg := fmt.Sprintf("%s failed after %s: %v", noun(s.Kind), took, res.Err)
		if s.Kind == diff.StepCreate && res.Recorded {
			msg += fmt.Sprintf(" (%s exists and is recorded in the state)", res.EndpointID)
		}
		return msg
	}
	var msg string
	switch s.Kind {
	case diff.StepState:
		return "recorded in the state: " + stateWords(s)
	case diff.StepCreate:
		msg = fmt.Sprintf("created %s after %s", res.EndpointID, took)
		if res.Adopted {
			msg += " (found by its name after the answer was lost)"
		}
	case diff.StepUpdate:
		msg = fmt.Sprintf("updated %s after %s", s.EndpointID, took)
		if res.Unchanged {
			msg += " (the change was in place when the lost answer was checked)"
		}
	case diff.StepDefaults:
		msg = fmt.Sprintf("changed the project's defaults for computes created from now on, after %s", took)
	case diff.StepDelete:
		msg = fmt.Sprintf("deleted %s after %s", s.EndpointID, took)
		if res.AlreadyGone {
			msg = fmt.Sprintf("%s was already deleted (%s)", s.EndpointID, took)
		}
	}
	if res.StillRunning {
		msg += "; its operations were still running when the apply was interrupted, and the service finishes them"
	}
	return msg
}

// stateWords says what a state-only step records.
func stateWords(s *diff.Step) string {
	switch {
	case s.Note != "":
		return s.Note
	case s.MovedFrom != "":
		return fmt.Sprintf("%s is now %s", s.MovedFrom, s.Address)
	case s.Forget != "":
		return "forget " + s.Forget
	}
	return "what is live and applied"
}

func noun(k diff.StepKind) string {
	switch k {
	case diff.StepCreate:
		return "create"
	case diff.StepUpdate:
		return "update"
	case diff.StepDelete:
		return "delete"
	case diff.StepDefaults:
		return "change of the project's defaults"
	}
	return "state change"
}

func verbing(k diff.StepKind) string {
	switch k {
	case diff.StepCreate:
		return "creating"
	case diff.StepUpdate:
		return "updating"
	case diff.StepDelete:
		return "deleting"
	case diff.StepDefaults:
		return "changing the defaults of"
	}
	return "recording"
}

// startLine, endLine, failedBeforeStartLine and noteLine are the lines
// people read about a step, which apply -json's events carry too.
func startLine(s *diff.Step, ch *diff.Change, idleNow bool) string {
	return fmt.Sprintf("%s: %s...", s.Address, startWords(s, ch, idleNow))
}

func endLine(res *apply.StepResult) string {
	return fmt.Sprintf("%s: %s", res.Step.Address, endWords(res))
}

func failedBeforeStartLine(res *apply.StepResult) string {
	return fmt.Sprintf("%s: %s failed: %v", res.Step.Address, noun(res.Step.Kind), res.Err)
}

func noteLine(s *diff.Step, n apply.Note) string {
	return fmt.Sprintf("%s: %s", s.Address, noteWords(s, n))
}

// noteWords says what happened during step s.
func noteWords(s *diff.Step, n apply.Note) string {
	switch n.Kind {
	case apply.NoteCreateFound:
		return fmt.Sprintf("the answer to the create was lost, but it made %s (named %s): using it, not creating another", n.EndpointID, s.QuotedName())
	case apply.NoteCreateResent:
		return fmt.Sprintf("the answer to the create was lost and it made nothing (no new endpoint named %s): sending it again", s.QuotedName())
	case apply.NoteUpdateInPlace:
		return "the answer to the update was lost, but the change is in place: not sending it again"
	case apply.NoteUpdateResent:
		return "the answer to the update was lost and the change is not in place: sending it again"
	case apply.NoteDefaultsResent:
		return "the answer to the change of the project's defaults was lost: sending it again (it sets the same values)"
	case apply.NoteDeleteResent:
		return "the answer to the delete was lost: sending it again (deleting twice is harmless)"
	}
	return fmt.Sprintf("note %d", n.Kind)
}

// labelsOf are the projects' labels by id, or their ids when they have none.
func labelsOf(p *diff.Plan) map[string]string {
	labels := make(map[string]string, len(p.Projects))
	for _, pr := range p.Projects {
		labels[pr.ID] = pr.Label
		if pr.Label == "" {
			labels[pr.ID] = pr.ID
		}
	}
	return labels
}

// The apply.Hook of progress.

func (p *progress) PlanChecked(plan *diff.Plan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.labels = len(plan.Steps), labelsOf(plan)
}

func (p *progress) Begin(timeLeft func() (time.Duration, bool)) {
	p.mu.Lock()
	p.timeLeft = timeLeft
	p.mu.Unlock()
	p.begin()
}

func (p *progress) StepStarted(s *diff.Step, ch *diff.Change, idleNow bool) { p.start(s, ch, idleNow) }
func (p *progress) StepNote(s *diff.Step, n apply.Note)                     { p.note(s, n) }
func (p *progress) StepEnded(res *apply.StepResult)                         { p.end(res) }
func (p *progress) StepFailedBeforeStart(res *apply.StepResult)             { p.failedBeforeStart(res) }
func (p *progress) OthersDone(projectID string)                             { p.othersDone(projectID) }
func (p *progress) StateSaved(string, int64)                                {}

func (p *progress) OthersRunning(projectID string, n int) {
	p.mu.Lock()
	label := p.labels[projectID]
	p.mu.Unlock()
	p.othersRunning(projectID, label, n)
}

// Warning is said on a line of its own.
func (p *progress) Warning(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	fmt.Fprintf(p.w, "Warning: %v\n", err)
	p.drawStatus()
}

// Finished stops the ticker and clears the status line: the report follows.
func (p *progress) Finished(*apply.Report, error) { p.finish() }
