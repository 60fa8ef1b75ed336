package views

import (
	"io"

	"github.com/neonform/neonform/apply"
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
}

// NewApply is the view of a run: without events (json nil), people's text on
// stdout (live: a terminal); with them, on stderr, never live.
func NewApply(stdout, stderr io.Writer, live bool, json *ApplyJSON) *Apply {
	if json != nil {
		return &Apply{People: stderr, JSON: json}
	}
	return &Apply{People: stdout, Live: live}
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
