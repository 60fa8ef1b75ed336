package apply

import (
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
)

// LoosenedPlanError refuses a plan that permits what the configuration
// forbids now (diff.HoldTo): a guard of its lifecycle block, or a value it
// takes from a sensitive variable, that the plan file says less of, whether
// the file was edited or the configuration tightened since. Nothing was
// changed.
//
// It wraps the refusal as a *diag.Error, about the compute it names, as
// DamagedPlanError does.
type LoosenedPlanError struct {
	Reason      string
	Diagnostics diag.Diagnostics
}

func (e *LoosenedPlanError) Error() string {
	return "the plan cannot be applied: " + e.Reason + "."
}

// Unwrap is the refusal as diagnostics.
func (e *LoosenedPlanError) Unwrap() error {
	return &diag.Error{Diagnostics: e.Diagnostics, Message: e.Error()}
}

// loosened is the refusal of p, which HoldTo refused with err.
func loosened(p *diff.Plan, err error) *LoosenedPlanError {
	e := &LoosenedPlanError{}
	e.Reason, e.Diagnostics = refused(p, err, "Plan allows what the configuration forbids", func(r string) string { return (&LoosenedPlanError{Reason: r}).Error() })
	return e
}
