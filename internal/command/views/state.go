package views

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// The state subcommands for people: the work (internal/command's state_*.go)
// returns what it did as facts, and these word it. Addresses, ids and
// lineages are a state file's text: shown escaped (internal/textsafe).

// StateEntry is one entry a state edit took: its address, its address after
// a move ("" for a removal) and its endpoint.
type StateEntry struct {
	From, To   string
	EndpointID string
}

// StateEdit is what state rm or state mv did, or with -dry-run would do.
type StateEdit struct {
	// Move: state mv, from From to To; else state rm.
	Move     bool
	From, To string
	// One: state mv of one compute address (not every compute of a
	// project or a branch).
	One    bool
	DryRun bool
	// Entries are the entries taken, in the order they were.
	Entries []StateEntry
	// Before and After are the state's serials (equal for a dry run).
	Before, After int64
}

// WriteStateEdit says what e did; a move's note suggests plan, written for
// the run's context x.
func WriteStateEdit(w io.Writer, e *StateEdit, x suggest.Context) {
	if e.DryRun {
		for _, m := range e.Entries {
			if e.Move {
				fmt.Fprintf(w, "Would move %s to %s (%s).\n", textsafe.Terminal(m.From), textsafe.Terminal(m.To), textsafe.Terminal(m.EndpointID))
			} else {
				fmt.Fprintf(w, "Would remove %s (%s) from the state.\n", textsafe.Terminal(m.From), textsafe.Terminal(m.EndpointID))
			}
		}
		fmt.Fprintf(w, "-dry-run: nothing was written; the state is still at serial %d.\n", e.Before)
		return
	}
	if e.Move {
		writeMoved(w, e, x.Text(suggest.Run("plan")))
		return
	}
	if len(e.Entries) == 1 {
		fmt.Fprintf(w, "Removed %s (%s) from the state (serial %d -> %d). The endpoint keeps running; neonform no longer manages it.\n",
			textsafe.Terminal(e.Entries[0].From), textsafe.Terminal(e.Entries[0].EndpointID), e.Before, e.After)
		return
	}
	for _, m := range e.Entries {
		fmt.Fprintf(w, "Removed %s (%s) from the state.\n", textsafe.Terminal(m.From), textsafe.Terminal(m.EndpointID))
	}
	fmt.Fprintf(w, "Removed %s from the state (serial %d -> %d). Their endpoints keep running; neonform no longer manages them.\n",
		english.Plural(len(e.Entries), "compute", "computes"), e.Before, e.After)
}

// writeMoved says what state mv did; plan is the command to see what the
// new addresses mean.
func writeMoved(w io.Writer, e *StateEdit, plan string) {
	if e.One {
		fmt.Fprintf(w, "Moved %s to %s (%s; serial %d -> %d). Nothing changed in the service; run `%s` to see what the new address means.\n",
			textsafe.Terminal(e.From), textsafe.Terminal(e.To), textsafe.Terminal(e.Entries[0].EndpointID), e.Before, e.After, plan)
		return
	}
	for _, m := range e.Entries {
		fmt.Fprintf(w, "Moved %s to %s (%s).\n", textsafe.Terminal(m.From), textsafe.Terminal(m.To), textsafe.Terminal(m.EndpointID))
	}
	fmt.Fprintf(w, "Moved %s from %s to %s (serial %d -> %d). Nothing changed in the service; run `%s` to see what the new addresses mean.\n",
		english.Plural(len(e.Entries), "compute", "computes"), textsafe.Terminal(e.From), textsafe.Terminal(e.To), e.Before, e.After, plan)
}

// StateList is what state list found: the state's entries under Prefix
// ("" for all), with the facts its empty answers need.
type StateList struct {
	// Where describes the state (its backend).
	Where  string
	Prefix string
	// Empty: the state records no computes at all.
	Empty bool
	// Some is "it records a, b and c": the state's first few addresses,
	// for a prefix that matches none.
	Some string
	// Rows are the entries under Prefix, in order.
	Rows []StateRow
}

// StateRow is one entry of state list: its address, endpoint and type (as
// the state may show it).
type StateRow struct {
	Address, EndpointID, Type string
}

// WriteStateList writes the list, a line an entry to w; or, when there is
// none, says why to notes.
func WriteStateList(w, notes io.Writer, l *StateList) error {
	switch {
	case l.Empty:
		fmt.Fprintf(notes, "The state (%s) records no computes.\n", textsafe.Terminal(l.Where))
		return nil
	case len(l.Rows) == 0:
		fmt.Fprintf(notes, "The state (%s) records no computes under %s; %s.\n", textsafe.Terminal(l.Where), textsafe.Terminal(l.Prefix), textsafe.Terminal(l.Some))
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range l.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", textsafe.Terminal(r.Address), textsafe.Terminal(r.EndpointID), textsafe.Terminal(r.Type))
	}
	return tw.Flush()
}

// WriteStateShow writes the entry c at addr: what the state records of it
// and what was last applied, the values of sensitive variables hidden.
func WriteStateShow(w io.Writer, addr string, c *state.Compute) {
	row := func(indent, name string, value any) {
		fmt.Fprintf(w, "%s%-*s  %s\n", indent, 21-len(indent), name, textsafe.Terminal(fmt.Sprint(value)))
	}
	fmt.Fprintln(w, textsafe.Terminal(addr))
	row("  ", "endpoint_id", c.EndpointID)
	if c.Host != "" {
		row("  ", "host", c.Host)
	}
	row("  ", "project_id", c.ProjectID)
	row("  ", "prevent_destroy", c.PreventDestroy)
	if c.BranchName != "" {
		row("  ", "branch_name", c.BranchName)
	}
	fmt.Fprintln(w, "  applied:")
	for _, r := range diff.AppliedValues(c).RowsHiding(diff.SecretsOf(c)) {
		row("    ", r.Name, r.Value)
	}
}

// WriteUnlocked says that force-unlock removed the lock id of the state
// where.
func WriteUnlocked(w io.Writer, id, where string) {
	fmt.Fprintf(w, "Removed the state lock %s of %s. Make sure the run that held it is gone before you apply.\n", textsafe.Terminal(id), textsafe.Terminal(where))
}
