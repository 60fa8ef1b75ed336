package view

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/internal/textsafe"
)

// A fleet is the instances of one compute of a branch rule, one per matched
// branch: shop.previews["preview/pr-12"].primary and its siblings make the
// fleet shop.previews[*].primary. At fleet size a plan lists fifty changes
// that say the same thing; the views summarise each fleet in one line and
// say its shared change once, still naming every instance. The plan file
// lists each instance as a change of its own: a fleet is only a way to read.

// fleet is the changes of one fleet, in the plan's order, no-ops included.
type fleet struct {
	address string
	changes []*diff.Change
}

// fleetOf is the fleet address of a change's address, or "" when the
// change is not an instance of a rule's compute.
func fleetOf(address string) string {
	project, branch, compute, err := config.ParseAddress(address)
	if err != nil {
		return ""
	}
	label, _, keyed := config.SplitInstance(branch)
	if !keyed {
		return ""
	}
	return config.AddressOf(project, config.AllInstances(label), compute)
}

// fleets groups the changes by fleet, keeping those of two instances or
// more: a fleet of one reads as a single change. Nil once l says the view
// stops.
func fleets(changes []diff.Change, l *looks) map[string]*fleet {
	out := map[string]*fleet{}
	for i := range changes {
		if l.stopped() {
			return nil
		}
		c := &changes[i]
		if a := fleetOf(c.Address); a != "" {
			f := out[a]
			if f == nil {
				f = &fleet{address: a}
				out[a] = f
			}
			f.changes = append(f.changes, c)
		}
	}
	for a, f := range out {
		if len(f.changes) < 2 {
			delete(out, a)
		}
	}
	return out
}

// summary is "37 branches, 35 in place, 2 to update, 1 restart": how many
// instances, what happens to them, and how many active computes that
// interrupts.
func (f *fleet) summary(p *diff.Plan) string {
	var s diff.Summary
	for _, c := range f.changes {
		s = s.Add(*c)
	}
	parts := []string{english.Plural(len(f.changes), "branch", "branches")}
	for _, n := range []struct {
		count int
		words string
	}{
		{s.NoOp, "in place"}, {s.Create, "to create"}, {s.Update, "to update"}, {s.Replace, "to replace"}, {s.Delete, "to delete"},
	} {
		if n.count > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n.count, n.words))
		}
	}
	if s.Restart > 0 {
		parts = append(parts, english.Plural(s.Restart, "restart", "restarts"))
	}
	if s.Suspend > 0 {
		parts = append(parts, english.Plural(s.Suspend, "suspend", "suspends"))
	}
	return strings.Join(parts, ", ") + fleetCost(p, f)
}

// sameChanges splits changes into runs that make the same change: the same
// action, adoption and downtime, the same attributes from the same values
// to the same values, and the same size. Instances differ only in their
// address, endpoint and whether it is active now. The order is kept, each
// run where its first change was.
func sameChanges(changes []*diff.Change) [][]*diff.Change {
	var runs [][]*diff.Change
	index := map[string]int{}
	for _, c := range changes {
		key := changeKey(c)
		if i, seen := index[key]; seen {
			runs[i] = append(runs[i], c)
			continue
		}
		index[key] = len(runs)
		runs = append(runs, []*diff.Change{c})
	}
	return runs
}

func changeKey(c *diff.Change) string {
	// A create says which branch it is on: each instance's own, by
	// definition, so it does not make two creates different changes.
	attrs := slices.DeleteFunc(slices.Clone(c.Attributes), func(a diff.Attribute) bool { return managed.Named(a.Name) == managed.Branch && a.Before == nil })
	key, _ := json.Marshal(attrs)
	return fmt.Sprintf("%v|%v|%v|%v|%s|%s|%s", c.Action, c.Adopt, c.Downtime, c.Type, c.Size, c.MovedFrom, key)
}

// commonReasons are the reasons every change of a run gives, in the first
// one's order: a reason that names an endpoint belongs to one instance.
func commonReasons(run []*diff.Change) []reasonLine {
	others := make([][]reasonLine, len(run)-1)
	for i, c := range run[1:] {
		others[i] = reasonLines(c)
	}
	var out []reasonLine
	for _, r := range reasonLines(run[0]) {
		shared := true
		for _, lines := range others {
			if !slices.ContainsFunc(lines, func(l reasonLine) bool { return l.text == r.text }) {
				shared = false
				break
			}
		}
		if shared {
			out = append(out, r)
		}
	}
	return out
}

// fleetLines is the Markdown list of the fleets, one line each, before the
// table of changes that lists every instance.
func fleetLines(p *diff.Plan, l *looks) string {
	groups := fleets(p.Changes, l)
	if len(groups) == 0 {
		return ""
	}
	var b strings.Builder
	for _, a := range slices.Sorted(maps.Keys(groups)) {
		fmt.Fprintf(&b, "- %s: %s\n", textsafe.MarkdownCode(a), dollarsSafe(groups[a].summary(p)))
	}
	return b.String() + "\n"
}
