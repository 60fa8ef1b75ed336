package apply

import (
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// DamagedPlanError refuses a plan that diff.Verify does not derive again: a
// plan file cut short or edited by hand (its steps, state-only ones
// included, its changes or its summary). Nothing was changed.
//
// It wraps the refusal as a *diag.Error (errors.As finds it): one
// diagnostic whose detail is this error's sentence and whose address is the
// compute whose change or step differs, when Verify named one; so
// `apply -json` reports it in the fields `validate -json` uses.
type DamagedPlanError struct {
	Reason string
	// Diagnostics: the refusal as one diagnostic (damaged makes it).
	Diagnostics diag.Diagnostics
}

func (e *DamagedPlanError) Error() string {
	return "the plan cannot be applied, so nothing was changed: " + e.Reason +
		". Was the plan file edited or cut short? Make a new one with " + newPlan.Quoted() + "."
}

// newPlan is the command a damaged plan's refusal suggests.
var newPlan = suggest.Run("plan", "-out", "plan.json")

// Suggestions is the new plan the refusal suggests.
func (e *DamagedPlanError) Suggestions() []suggest.Command { return []suggest.Command{newPlan} }

// Unwrap is the refusal as diagnostics.
func (e *DamagedPlanError) Unwrap() error {
	if len(e.Diagnostics) == 0 {
		return nil
	}
	return &diag.Error{Diagnostics: e.Diagnostics, Message: e.Error()}
}

// damaged is the refusal of p, whose Verify failed with err. What differs
// may quote a secret, and the error may end up in a CI log: it is hidden.
func damaged(p *diff.Plan, err error) *DamagedPlanError {
	e := &DamagedPlanError{}
	e.Reason, e.Diagnostics = refused(p, err, "Plan cannot be applied", func(r string) string { return (&DamagedPlanError{Reason: r}).Error() })
	e.Diagnostics[0].Suggestions = append(e.Diagnostics[0].Suggestions, newPlan)
	return e
}

// refused is the reason and the diagnostic of a refusal of p for err, its
// secrets hidden; sentence words the refusal from the reason.
func refused(p *diff.Plan, err error, summary string, sentence func(reason string) string) (string, diag.Diagnostics) {
	secrets := p.SensitiveTexts()
	reason := diff.HideTexts(err.Error(), secrets)
	return reason, diag.Diagnostics{diff.Refusal(err, summary, sentence(reason), secrets)}
}
