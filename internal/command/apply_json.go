package command

import (
	"errors"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
)

// apply -json: standard output holds one JSON object a line for every event
// of the apply (internal/command/views/hook_json.go; docs/plan-format.md,
// "Apply events"), so a deployment tool can follow it without parsing prose.
// What people read (the plan, the progress, the report) goes to standard
// error instead (views.NewApply), and errors stay there too. However the run
// ends, the last line is an apply_finished.

// applyView chooses where o's run shows itself: with -json, the events on
// standard output and people's text on standard error.
func applyView(o applyOptions) *views.Apply {
	if !o.JSON {
		return views.NewApply(o.Stdout, o.Stderr, o.Live, nil)
	}
	events := views.NewApplyJSON(o.Stdout, configArgsOf(o.planInputs).context, o.PlanFile)
	return views.NewApply(o.Stdout, o.Stderr, false, events)
}

// noQuestionWithJSON: with -json, standard output is for events, not for a
// question (as with terraform apply -json), so apply cannot ask there, on a
// terminal or not. Like apply without a terminal, it then carries out a plan
// with nothing to review and refuses any other (approve).
func noQuestionWithJSON(o *applyOptions) {
	if o.JSON && o.PlanFile == "" && !o.AutoApprove {
		o.Interactive, o.NoAsk = false, "with -json its standard output is for events"
	}
}

// noChanges ends the stream of a plan with nothing to do.
func noChanges(events *views.ApplyJSON, plan *diff.Plan) {
	if events == nil {
		return
	}
	events.PlanChecked(plan)
	events.Finished(&apply.Report{}, nil)
}

// endEvents makes sure the stream ends with an apply_finished: a run that
// stopped before apply began (a plan file that cannot be read, the
// configuration, a held lock) changed nothing, and says why: the
// configuration's diagnostics, printed for people on standard error, in the
// fields validate -json uses.
func endEvents(events *views.ApplyJSON, err error) {
	if events == nil || events.Ended() {
		return
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.msg == "" {
		err = &diag.Error{Message: "the errors are on standard error", Diagnostics: ee.diags}
	}
	events.Finished(nil, err)
}
