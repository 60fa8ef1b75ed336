package views

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/textsafe"
)

// Apply is where an apply run shows itself, chosen once when the run starts,
// as Terraform's views.Apply is: the text people read (the plan, the notes,
// the progress, the report) goes to People; with -json, standard output
// holds the events (JSON) and people's text goes to standard error instead,
// where errors are too.
type Apply struct {
	// People gets the text people read.
	People io.Writer
	// Live: People is a terminal, for the status line of the steps in flight.
	Live bool
	// JSON is the event stream of apply -json; nil without -json.
	JSON *ApplyJSON
	// Errors is standard error, where a failed apply's report goes.
	Errors io.Writer
}

// NewApply is the view of a run: without events (json nil), people's text on
// stdout (live: a terminal); with them, on stderr, never live.
func NewApply(stdout, stderr io.Writer, live bool, json *ApplyJSON) *Apply {
	if json != nil {
		return &Apply{People: stderr, JSON: json, Errors: stderr}
	}
	return &Apply{People: stdout, Live: live, Errors: stderr}
}

// Hooks are the apply.Hooks that show the apply: the progress for people,
// and the events with -json.
func (v *Apply) Hooks() []apply.Hook {
	hs := []apply.Hook{NewApplyUI(v.People, v.Live, 0)}
	if v.JSON != nil {
		hs = append(hs, v.JSON)
	}
	return hs
}

// Note is a line for people before the apply, such as what changed since
// a saved plan was made. It names files and directories: shown escaped
// (internal/textsafe).
func (v *Apply) Note(text string) {
	fmt.Fprintln(v.People, textsafe.Terminal(text))
}

// Starting separates what came before (the plan, the answer to the
// question) from the progress of the steps.
func (v *Apply) Starting() {
	fmt.Fprintln(v.People)
}

// SavedPlan introduces the apply of the saved plan in file: when it was
// made, and what it does.
func (v *Apply) SavedPlan(file string, p *diff.Plan) {
	fmt.Fprintf(v.People, "Plan %s, made %s: %s\n\n", filepath.ToSlash(file), p.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), planSummary(p))
}

// NothingToDo ends the apply of a saved plan that, once checked, had
// nothing to do.
func (v *Apply) NothingToDo(file string) {
	fmt.Fprintf(v.People, "%s has no changes: nothing to do.\n", filepath.ToSlash(file))
}

// Finished prints the summary of the report at the end (Summary, its
// suggestions completed for the run): on standard error when a step failed.
func (v *Apply) Finished(summary string, failed bool) {
	w := v.People
	if failed {
		w = v.Errors
	}
	fmt.Fprintf(w, "\n%s\n", summary)
}

// planSummary is view.ShortSummary, and whether the plan is partial.
func planSummary(p *diff.Plan) string {
	out := view.ShortSummary(p)
	if len(p.Targets) > 0 {
		out += " It is partial (-target " + strings.Join(p.Targets, ", -target ") + "): other changes may be waiting."
	}
	return out
}
