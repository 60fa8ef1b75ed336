// Package diag is neonform's one kind of problem report: a severity, a short
// summary, a detail sentence that names the fix, and a subject, either a
// place in a configuration file (an hcl.Range) or a compute's address (with
// the plan file it was found in, when there is one). Configuration errors,
// plan problems and apply's refusals are all Diagnostics, so a program
// reading `validate -json` or `apply -json` (docs/plan-format.md, "Apply
// events") reads the same fields for each.
//
// The package converts from hcl.Diagnostics without loss, renders
// JSON (json.go) and carries diagnostics through Go errors (Error). It does
// not print for people: the CLI's renderer does (internal/command).
package diag

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/suggest"
)

// Severity is how bad a diagnostic is.
type Severity int

const (
	// SeverityError stops what was asked.
	SeverityError Severity = iota
	// SeverityWarning is said, and the run goes on.
	SeverityWarning
)

// Diagnostic is one problem, with what it is about.
type Diagnostic struct {
	Severity Severity
	Summary  string
	Detail   string
	// The subject: Range when the problem is at a place in a file, else
	// Address (a compute's address, such as shop.main.primary), with
	// PlanFile when it is found in a plan file. All empty: no subject.
	Range    *hcl.Range
	Address  string
	PlanFile string
	// Suggestions are the commands Detail advises, each written there as
	// its Quoted form: a view renders them with the run's context.
	Suggestions []suggest.Command
	// Near is the near-miss of a name that names nothing, which a view
	// words at its place in Detail (Word); no Names: none.
	Near Near

	// What hcl.Diagnostic holds besides, kept so that nothing config says
	// is lost on the way (an editor or a test may read them).
	Context     *hcl.Range
	Expression  hcl.Expression
	EvalContext *hcl.EvalContext
	Extra       any
}

// Unquoted is the Extra of a diagnostic whose place must not be quoted:
// the text there is a secret (a password in a URL), so a view names the
// file, line and column and shows none of the line. Extra is what the
// diagnostic holds besides (a Near), as hcl's extras wrap one another.
type Unquoted struct{ Extra any }

// UnwrapDiagnosticExtra is the extra u wraps (hcl.DiagnosticExtraUnwrapper).
func (u Unquoted) UnwrapDiagnosticExtra() any { return u.Extra }

// Quotable reports whether a view may quote d's source line.
func (d Diagnostic) Quotable() bool {
	_, hide := d.Extra.(Unquoted)
	return !hide
}

// Diagnostics are the problems of one run, in the order they were found.
type Diagnostics []Diagnostic

// HasErrors says whether any of ds is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// AtAddress is one error diagnostic about a compute's address.
func AtAddress(address, summary, detail string) Diagnostic {
	return Diagnostic{Severity: SeverityError, Summary: summary, Detail: detail, Address: address}
}

// FromHCL converts hcl's diagnostics (config's and diff.Build's). An
// hcl.Diagnostic whose detail suggests commands holds them as its Extra
// ([]suggest.Command): they become the Suggestions; one about a near-miss
// holds a Near (alone, or wrapped in an Unquoted): it becomes Near.
func FromHCL(hd hcl.Diagnostics) Diagnostics {
	if hd == nil {
		return nil
	}
	ds := make(Diagnostics, len(hd))
	for i, h := range hd {
		d := Diagnostic{Severity: SeverityError, Summary: h.Summary, Detail: h.Detail, Range: h.Subject,
			Context: h.Context, Expression: h.Expression, EvalContext: h.EvalContext, Extra: h.Extra}
		if cmds, ok := h.Extra.([]suggest.Command); ok {
			d.Suggestions, d.Extra = cmds, nil
		}
		if near, ok := hcl.DiagnosticExtra[Near](h); ok {
			d.Near = near
			if _, bare := h.Extra.(Near); bare {
				d.Extra = nil
			}
		}
		if h.Severity == hcl.DiagWarning {
			d.Severity = SeverityWarning
		}
		ds[i] = d
	}
	return ds
}
