package diag

import (
	"strings"

	"github.com/neonform/neonform/internal/suggest"
)

// Error is a refusal made of diagnostics: plan and apply return it (or an
// error that wraps it), so errors.As finds what a program needs to report
// the refusal field by field, while Error() keeps the sentence people read.
type Error struct {
	Diagnostics Diagnostics
	// Message is what Error() says; empty: the errors' summaries and details.
	Message string
}

// ErrorAt is an Error of one diagnostic about address, which people read as
// message (also the diagnostic's detail), which suggests cmds.
func ErrorAt(address, summary, message string, cmds ...suggest.Command) *Error {
	d := AtAddress(address, summary, message)
	d.Suggestions = cmds
	return &Error{Message: message, Diagnostics: Diagnostics{d}}
}

// Suggestions are the commands the diagnostics suggest (suggest.Of).
func (e *Error) Suggestions() []suggest.Command {
	var out []suggest.Command
	for _, d := range e.Diagnostics {
		out = append(out, d.Suggestions...)
	}
	return out
}

func (e *Error) Error() string {
	if e.Message != "" {
		return e.Message
	}
	var parts []string
	for _, d := range e.Diagnostics {
		if d.Severity != SeverityError {
			continue
		}
		d.Word()
		s := d.Summary
		if d.Detail != "" {
			s += ": " + d.Detail
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
