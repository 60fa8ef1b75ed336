package diag

import (
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/nearest"
)

// Near is a near-miss as a fact: the names nearest to one a diagnostic is
// about that names nothing (internal/nearest chooses them). The package that
// finds the problem records it and words none of it; Word writes the
// sentence people read, "Did you mean X?", for every view (the CLI's text,
// -json, the language server), so that it reads the same in each.
type Near struct {
	// Names are the nearest names, in the order to say them.
	Names []string
	// Strings: the names are string values (a branch's name), written
	// quoted; else addresses, written as they are.
	Strings bool
	// At is where in Detail the sentence goes, a byte offset: the text
	// before it ends a sentence.
	At int
	// Written: Word has written the sentence into Detail, which a view
	// then reads as it is.
	Written bool
}

// Word writes d's near-miss into its Detail, once: a view calls it before
// it adds to the detail (commands in a run's context, a sentence of its
// own), which would move the place the sentence goes.
func (d *Diagnostic) Word() {
	if len(d.Near.Names) == 0 || d.Near.Written {
		return
	}
	d.Detail = d.Near.In(d.Detail)
	d.Near.Written = true
}

// In is detail with n's sentence at its place (At), for a message that is
// not a diagnostic (an error's text); detail itself when n has no names.
func (n Near) In(detail string) string {
	if len(n.Names) == 0 {
		return detail
	}
	at := min(max(n.At, 0), len(detail))
	return detail[:at] + " " + n.Sentence() + detail[at:]
}

// Sentence is "Did you mean X?", X the names joined with "or": `"main" or
// "mainline"` for strings, `a, b or c` for addresses.
func (n Near) Sentence() string {
	if n.Strings {
		return "Did you mean " + english.Or(nearest.Quoted(n.Names)) + "?"
	}
	return "Did you mean " + english.Or(n.Names) + "?"
}

// Worded words the near-miss of each of ds in place (Word), and is ds.
func (ds Diagnostics) Worded() Diagnostics {
	for i := range ds {
		ds[i].Word()
	}
	return ds
}
