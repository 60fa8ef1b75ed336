package diag

import (
	"fmt"
	"unicode/utf8"

	"github.com/neonform/neonform/internal/suggest"
)

// Limits of one diagnostic as neonform shows it, to people and in JSON, so
// that a message quoting a long value cannot bury the rest (docs/limits.md:
// "Limits").
const (
	MaxSummary = 200
	MaxDetail  = 2000
)

// JSON is a diagnostic as `validate -json` and `apply -json` write it; the
// shape follows terraform validate -json's, so tools that read one read the
// other. Range is set when the subject is a place in a file; Address (and
// PlanFile, when known) when it is a compute.
type JSON struct {
	Severity string     `json:"severity"` // "error" or "warning"
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail,omitempty"`
	Range    *RangeJSON `json:"range,omitempty"`
	Address  string     `json:"address,omitempty"`
	PlanFile string     `json:"plan_file,omitempty"`
	// Suggestions are the commands Detail advises, as they are to be run.
	Suggestions []suggest.JSON `json:"suggestions,omitempty"`
	// DidYouMean are the names nearest to one that names nothing, which
	// Detail offers ("Did you mean X?"), as they are written in the
	// configuration or on the command line.
	DidYouMean []string `json:"did_you_mean,omitempty"`
}

// RangeJSON is a place in a file; lines and columns count from 1.
type RangeJSON struct {
	Filename string  `json:"filename"`
	Start    PosJSON `json:"start"`
	End      PosJSON `json:"end"`
}

// PosJSON is one position of a RangeJSON.
type PosJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// ToJSON is d as JSON, its summary and detail clipped as people see them,
// its suggestions bare (ToJSONIn).
func (d Diagnostic) ToJSON() JSON { return d.ToJSONIn(suggest.Context{}) }

// ToJSONIn is d as JSON with its suggestions, in its detail and beside it,
// in the context of the run that reports it.
func (d Diagnostic) ToJSONIn(x suggest.Context) JSON {
	d.Word()
	j := JSON{Severity: "error", Summary: Clip(d.Summary, MaxSummary),
		Detail:  Clip(x.Complete(d.Detail, d.Suggestions), MaxDetail),
		Address: d.Address, PlanFile: d.PlanFile, Suggestions: x.JSON(d.Suggestions), DidYouMean: d.Near.Names}
	if d.Severity == SeverityWarning {
		j.Severity = "warning"
	}
	if r := d.Range; r != nil {
		j.Range = &RangeJSON{
			Filename: r.Filename,
			Start:    PosJSON{r.Start.Line, r.Start.Column, r.Start.Byte},
			End:      PosJSON{r.End.Line, r.End.Column, r.End.Byte},
		}
	}
	return j
}

// ToJSON is each of ds as JSON, nil for none.
func (ds Diagnostics) ToJSON() []JSON { return ds.ToJSONIn(suggest.Context{}) }

// ToJSONIn is each of ds as JSON in the context x (Diagnostic.ToJSONIn).
func (ds Diagnostics) ToJSONIn(x suggest.Context) []JSON {
	var out []JSON
	for _, d := range ds {
		out = append(out, d.ToJSONIn(x))
	}
	return out
}

// Clip cuts s to about max bytes, keeping its start and its end (where a
// message says how to fix things) and saying how much it left out.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := max*2/3, max/3
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tailStart := len(s) - tail
	for tailStart < len(s) && !utf8.RuneStart(s[tailStart]) {
		tailStart++
	}
	left := utf8.RuneCountInString(s[head:tailStart])
	return fmt.Sprintf("%s … (%d characters left out) … %s", s[:head], left, s[tailStart:])
}
