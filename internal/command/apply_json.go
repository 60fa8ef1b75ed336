package command

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
)

// apply -json: standard output holds one JSON object a line for every event
// of the apply (apply/events.go; docs/plan-format.md, "Apply events"), so a
// deployment tool can follow it without parsing prose. What people read (the
// plan, the progress, the report) goes to standard error instead, and errors
// stay there too. However the run ends, the last line is an apply_finished.

// applyEvents is the event stream of one apply -json run.
type applyEvents struct {
	write    func(apply.Event)
	finished atomic.Bool
	// complete makes the commands an end's message suggests name the
	// run's configuration, as the same text on standard error does.
	complete func(string) string
	// planFile is the plan file applied, named by diagnostics about its
	// computes; "" when apply plans itself.
	planFile string
}

// send writes e, noting when the stream is finished.
func (a *applyEvents) send(e apply.Event) {
	if e.Type == apply.EventApplyFinished {
		a.finished.Store(true)
		e.Message, e.Error = a.complete(e.Message), a.complete(e.Error)
		for i := range e.Diagnostics {
			if e.Diagnostics[i].Address != "" && e.Diagnostics[i].PlanFile == "" {
				e.Diagnostics[i].PlanFile = a.planFile
			}
			e.Diagnostics[i].Detail = a.complete(e.Diagnostics[i].Detail)
		}
	}
	a.write(e)
}

// jsonApply readies o for -json: events to standard output, prose to
// standard error. Without a plan file it needs -auto-approve: standard
// output is not for a question, as with terraform apply -json.
func jsonApply(o applyOptions) (applyOptions, error) {
	if o.PlanFile == "" && !o.AutoApprove {
		a := configArgsOf(o.planInputs)
		return o, fmt.Errorf("apply -json cannot ask for confirmation: its standard output is for events. Nothing was changed.\n"+
			"Add -auto-approve, or apply a plan that was reviewed:\n  %s\n  %s",
			a.command("plan", "-out", "plan.json"), a.applySaved("plan.json", "-json"))
	}
	o.events = &applyEvents{write: apply.JSONEvents(o.Stdout), complete: configArgsOf(o.planInputs).complete, planFile: o.PlanFile}
	o.Stdout, o.Live = o.Stderr, false
	return o, nil
}

// noChanges ends the stream of a plan with nothing to do.
func (a *applyEvents) noChanges(plan *diff.Plan) {
	if a == nil {
		return
	}
	a.send(apply.PlanSummaryEvent(plan, "The plan has no changes: nothing to do."))
	a.send(apply.FinishedEvent(&apply.Report{}, nil))
}

// end makes sure the stream ends with an apply_finished: a run that stopped
// before apply began (a plan file that cannot be read, the configuration, a
// held lock) changed nothing, and says why: the configuration's diagnostics,
// printed for people on standard error, in the fields validate -json uses.
func (a *applyEvents) end(err error) {
	if a == nil || a.finished.Load() {
		return
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.msg == "" {
		err = &diag.Error{Message: "the errors are on standard error", Diagnostics: ee.diags}
	}
	a.send(apply.FinishedEvent(nil, err))
}

// sender is apply.Options.Events: nil without -json.
func (a *applyEvents) sender() func(apply.Event) {
	if a == nil {
		return nil
	}
	return a.send
}
