package view

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/managed"
)

// Words shared by the renderers: what a change does, said the same way in the
// terminal and in a pull-request comment.

// headline is what a change does to clients, in a few words; loud (upper
// case) when it interrupts a running compute or a host goes away.
func headline(c *diff.Change) string {
	if c.Downtime {
		return actionWords(c) + "; DOWNTIME on its branch meanwhile"
	}
	return actionWords(c)
}

func actionWords(c *diff.Change) string {
	if c.Adopt && c.Action == diff.Update {
		return "adopt and " + updateWords(c)
	}
	switch c.Action {
	case diff.Create:
		return "create"
	case diff.Replace:
		return "replace: RECREATE, new host, update connection strings"
	case diff.Delete:
		if c.Active {
			return "delete: DELETE, active now, drops connections"
		}
		return "delete"
	case diff.NoOp:
		if c.Adopt {
			return "adopt, no changes"
		}
		return "no changes"
	}
	return updateWords(c)
}

// updateWords says what an update does to the compute's clients.
func updateWords(c *diff.Change) string {
	switch c.Disruption {
	case diff.Restart:
		if c.Active {
			return "update: RESTART, active now, drops connections"
		}
		return "update: restart, idle now, no connections to drop"
	case diff.Suspend:
		if c.Active {
			return "update: SUSPEND, active now, drops connections"
		}
		return "update: suspend, idle now, no connections to drop"
	}
	return "update, no interruption"
}

// loud reports whether a change drops something now: a reviewer must see it.
func loud(c *diff.Change) bool {
	switch {
	case c.Action == diff.Delete || c.Action == diff.Replace || c.Downtime:
		return true
	case c.Disruption == diff.Restart || c.Disruption == diff.Suspend:
		return c.Active
	}
	return false
}

// dangerFirst orders changes for reading: those that drop something now, then
// idle restarts and suspends, then the rest; the worst disruption first within
// each, then by address.
func dangerFirst(changes []diff.Change) []*diff.Change {
	out := make([]*diff.Change, 0, len(changes))
	for i := range changes {
		if changes[i].Action != diff.NoOp {
			out = append(out, &changes[i])
		}
	}
	class := func(c *diff.Change) int {
		switch {
		case loud(c):
			return 0
		case c.Disruption != diff.None:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b *diff.Change) int {
		if x := cmp.Compare(class(a), class(b)); x != 0 {
			return x
		}
		if x := cmp.Compare(b.Disruption, a.Disruption); x != 0 {
			return x
		}
		return strings.Compare(a.Address, b.Address)
	})
	return out
}

// effectWords is the short effect column of an attribute row.
func effectWords(a diff.Attribute) string {
	switch a.Effect {
	case diff.Recreate:
		return "cannot change in place"
	case diff.None:
		return ""
	}
	return a.Effect.String()
}

// summaryLine is "1 to create, 1 to update (1 restart), 1 to replace, 1 to delete".
func summaryLine(s diff.Summary) string {
	update := fmt.Sprintf("%d to update", s.Update)
	var extra []string
	if s.Restart > 0 {
		extra = append(extra, english.Plural(s.Restart, "restart", "restarts"))
	}
	if s.Suspend > 0 {
		extra = append(extra, english.Plural(s.Suspend, "suspend", "suspends"))
	}
	if len(extra) > 0 {
		update += " (" + strings.Join(extra, ", ") + ")"
	}
	line := fmt.Sprintf("%d to create, %s, %d to replace, %d to delete", s.Create, update, s.Replace, s.Delete)
	if s.StateOnly > 0 {
		line += "; " + StateOnlyWords(s.StateOnly)
	}
	if s.Defaults > 0 {
		line += "; " + DefaultsWords(s.Defaults) + " to change"
	}
	if s.ForgetGone > 0 {
		line += "; " + GoneWords(s.ForgetGone) + " to forget"
	}
	return line
}

// ShortSummary is the summary that apply prints before it starts: only
// what the plan does, state-only steps counted like calls, and its steps:
// "2 to create, 1 to update, 1 change to the state alone; 4 steps."
func ShortSummary(p *diff.Plan) string {
	s := p.Summary
	var parts []string
	for _, c := range []struct {
		n    int
		verb string
	}{{s.Create, "create"}, {s.Update, "update"}, {s.Replace, "replace"}, {s.Delete, "delete"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d to %s", c.n, c.verb))
		}
	}
	if s.StateOnly > 0 {
		parts = append(parts, StateOnlyWords(s.StateOnly))
	}
	if s.Defaults > 0 {
		parts = append(parts, DefaultsWords(s.Defaults)+" to change")
	}
	if s.ForgetGone > 0 {
		parts = append(parts, GoneWords(s.ForgetGone)+" to forget")
	}
	if len(parts) == 0 {
		parts = append(parts, "no changes")
	}
	return strings.Join(parts, ", ") + "; " + english.Plural(len(p.Steps), "step", "steps") + "."
}

// stateOnly lists the steps that change the state alone, but for those
// that forget a gone compute the drift shows (goneNotes): a destroy plan
// lists no drift.
func stateOnly(p *diff.Plan) []diff.Step {
	// Sized at once: grown by doubling, a map of 250,000 drifted computes
	// was rehashed some fifteen times (half a second of a plan's CPU).
	gone := make(map[string]bool, len(p.Drift))
	for _, d := range p.Drift {
		gone[d.Address] = d.Gone
	}
	var out []diff.Step
	for _, s := range p.Steps {
		if s.Kind == diff.StepState && !(s.Gone && gone[s.Address]) {
			out = append(out, s)
		}
	}
	return out
}

// where says where an unmanaged endpoint is: "shop.main", or "branch br-x of shop".
func where(u diff.Unmanaged) string {
	if u.BranchLabel != "" {
		return u.ProjectLabel + "." + u.BranchLabel
	}
	return fmt.Sprintf("branch %s of %s", u.BranchID, u.ProjectLabel)
}

func describeUnmanaged(u diff.Unmanaged) string {
	s := fmt.Sprintf("%s on %s (%s", u.EndpointID, where(u), u.Type)
	if u.Name != "" {
		s += fmt.Sprintf(", named %q", u.Name)
	}
	return s + ")"
}

// shortSize is the first part of a size line: "1 CU fixed", "0.25-4 CU autoscaling".
func shortSize(size string) string {
	if i := strings.Index(size, ","); i >= 0 {
		return size[:i]
	}
	return size
}

// createdAttributes are the attributes of a create worth a line of their
// own: those the service would not give a compute by default, apart from the
// type, the branch and the size, which the header and the size line say.
func createdAttributes(c *diff.Change) []diff.Attribute {
	var out []diff.Attribute
	for _, a := range c.Attributes {
		at := managed.Named(a.Name)
		if at != nil && at.Headline {
			continue
		}
		if at == managed.Name {
			// Shown when it is not the compute's label, which the address ends in.
			if name, _ := a.After.(string); strings.HasSuffix(c.Address, "."+name) {
				continue
			}
		}
		if at == managed.Name || !diff.AtDefault(a.Name, a.After) {
			out = append(out, a)
		}
	}
	return out
}

// StateOnlyWords counts the steps that change the state alone, as every
// summary says it, the plan's and apply's: "2 changes to the state alone".
func StateOnlyWords(n int) string {
	return english.Plural(n, "change", "changes") + " to the state alone"
}

// GoneWords counts the computes whose endpoint is gone and that apply
// forgets without asking (diff.Step.Gone), as the plan's and apply's
// summaries say it: "2 gone computes" (to forget, forgotten).
func GoneWords(n int) string {
	return english.Plural(n, "gone compute", "gone computes")
}

// DefaultsWords counts the projects whose compute defaults a plan changes,
// as the plan's and apply's summaries say it: "1 project's compute
// defaults" (to change, changed).
func DefaultsWords(n int) string {
	return english.Plural(n, "project's compute defaults", "projects' compute defaults")
}

// goneNotes is what the plan says of forgetting each drifted compute whose
// endpoint is gone: the note of its step, by address; none when it has no
// such step (a create makes it again). Looked up once for all the drift,
// not step by step for each: a plan that forgets 40,000 computes would
// otherwise take minutes to print.
func goneNotes(p *diff.Plan) map[string]string {
	n := 0
	for _, s := range p.Steps {
		if s.Gone {
			n++
		}
	}
	notes := make(map[string]string, n) // sized at once, as in stateOnly
	for _, s := range p.Steps {
		if _, seen := notes[s.Address]; s.Gone && !seen {
			notes[s.Address] = s.Note
		}
	}
	return notes
}

// noReviewEnd ends the no-changes line of a plan whose only steps need no
// review (diff.Plan.HasChanges): forgetting gone computes, adopting
// endpoints that already match their configuration. Apply still has
// something to do, without asking.
func noReviewEnd(p *diff.Plan) string {
	var parts []string
	if p.Summary.ForgetGone > 0 {
		parts = append(parts, "forgets "+GoneWords(p.Summary.ForgetGone)+" (deleted outside neonform)")
	}
	if n := p.AdoptedAsIs(); n > 0 {
		parts = append(parts, "adopts "+AdoptedWords(n))
	}
	if len(parts) == 0 {
		return ""
	}
	return " Apply " + english.And(parts) + " without asking."
}

// AdoptedWords counts the endpoints a plan adopts as they are, which need
// no review (diff.Plan.AdoptedAsIs): "1 endpoint that already matches its
// configuration".
func AdoptedWords(n int) string {
	return english.Plural(n, "endpoint that already matches its configuration", "endpoints that already match their configuration")
}
