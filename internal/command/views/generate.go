package views

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/neonform/neonform/generate"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/shellquote"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
)

// What generate wrote, for people: generate.Result holds the facts. Names of
// files, projects and branches are the service's text: shown escaped.

// WriteGeneratedFiles says, for each file generate wrote, what it holds;
// with -match (match: its globs, nil without), which branches the rule
// matches but leaves out, and why, or that the file has no rule.
func WriteGeneratedFiles(w io.Writer, files []*generate.File, match []string) {
	for _, f := range files {
		rule := ""
		if f.Rule != nil {
			rule = fmt.Sprintf(", and branches %q for %s", f.Rule.Label, english.Plural(f.Rule.Branches, "branch", "branches"))
		}
		fmt.Fprintf(w, "wrote %s: %s, %s%s\n", textsafe.Terminal(f.Name), english.Plural(f.Branches, "branch", "branches"), english.Plural(f.Computes, "compute", "computes"), rule)
		if match != nil {
			writeRule(w, f, match)
		}
	}
}

// writeRule says which branches the rule of f's project leaves out, and
// why; or that it matched none.
func writeRule(w io.Writer, f *generate.File, match []string) {
	r := f.Rule
	if r == nil {
		globs := make([]string, len(match))
		for i, g := range match {
			globs[i] = "-match " + shellquote.Word(g)
		}
		fmt.Fprintf(w, "No branch of project %s with computes matches %s: %s has no branches block.\n",
			textsafe.Terminal(f.Label), textsafe.Terminal(strings.Join(globs, " ")), textsafe.Terminal(f.Name))
		return
	}
	for _, b := range r.Own {
		fmt.Fprintf(w, "Branch %s has a branch block of its own, %q: its computes differ from the ones branches %q gives its %s.\n",
			textsafe.Terminal(strconv.Quote(b.Name)), b.Label, r.Label, english.Plural(r.Branches, "branch", "branches"))
	}
	for _, name := range r.Excluded {
		fmt.Fprintf(w, "Branch %s is excluded from branches %q: it has no compute to describe, and the rule would create its computes there.\n",
			textsafe.Terminal(strconv.Quote(name)), r.Label)
	}
}

// WriteGeneratedRecorded says how many computes generate recorded in the
// state where, and that plan (written for the run's context x) has nothing
// to do.
func WriteGeneratedRecorded(w io.Writer, computes int, where string, x suggest.Context) {
	if computes == 0 {
		fmt.Fprintln(w, "No computes to record.")
		return
	}
	fmt.Fprintf(w, "Recorded %s in the %s. Run `%s`: it has nothing to do.\n",
		english.Plural(computes, "compute", "computes"), textsafe.Terminal(where), x.Text(suggest.Run("plan")))
}
