package view

import (
	"fmt"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
)

// hostilePlan is the busy plan with every string the service or a plan file
// gives the views replaced by a name built to break them: addresses (a
// keyed instance's key is a branch's name), endpoint and branch ids, names,
// attribute values, reasons, notes, warnings, calls and targets.
func hostilePlan(t *testing.T) *diff.Plan {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	bad := textsafetest.Name
	at := func(i int) string { return fmt.Sprintf(`shop.previews[%q].c%d`, bad, i) }
	for i := range p.Changes {
		c := &p.Changes[i]
		c.Address, c.EndpointID, c.MovedFrom, c.BranchName = at(i), bad, at(100+i), bad
		c.Reasons = append(c.Reasons, diff.Reason{Kind: diff.ReasonDowntime, Branch: &diff.Branch{ID: bad, Label: bad},
			EndpointID: bad, Address: at(300 + i), From: at(400 + i), ToBranch: &diff.Branch{ID: bad}})
		c.Attributes = append(c.Attributes, diff.Attribute{Name: "name", Before: bad, After: bad + "2"})
	}
	for i := range p.Drift {
		d := &p.Drift[i]
		d.Address, d.EndpointID = at(200+i), bad
		d.Attributes = append(d.Attributes, diff.Attribute{Name: "name", Before: "primary", After: bad})
	}
	for i := range p.Unmanaged {
		u := &p.Unmanaged[i]
		u.EndpointID, u.Name, u.BranchID, u.ProjectLabel = bad, bad, bad, bad
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		s.Address, s.Path, s.Name = at(i), "/projects/"+bad, bad
		if s.Kind == diff.StepState {
			s.Note = "forget " + bad
		}
	}
	p.Warnings = append(p.Warnings, "the service says "+bad)
	return p
}

// Every view of a plan shows the service's text escaped: on a terminal, with
// colours and without, and in a pull-request comment.
func TestViewsShowServiceTextEscaped(t *testing.T) {
	p := hostilePlan(t)
	textsafetest.Terminal(t, "plan", humanOf(t, p, HumanOptions{}))
	textsafetest.Terminal(t, "plan in colour", humanOf(t, p, HumanOptions{Color: true, Verbose: true}))
	textsafetest.Markdown(t, "plan as Markdown", markdownOf(t, p, 0))

	partial := hostilePlan(t)
	partial.Targets = []string{textsafetest.Name}
	textsafetest.Terminal(t, "partial plan", humanOf(t, partial, HumanOptions{}))
	textsafetest.Markdown(t, "partial plan as Markdown", markdownOf(t, partial, 0))

	// A plan without changes still names what it leaves alone.
	quiet := hostilePlan(t)
	quiet.Steps, quiet.Drift = nil, nil
	for i := range quiet.Changes {
		quiet.Changes[i].Action = diff.NoOp
	}
	textsafetest.Terminal(t, "plan without changes", humanOf(t, quiet, HumanOptions{Verbose: true}))
}

// An attribute's values are shown escaped in every sentence that quotes
// them: a reason, or the error of a plan gone stale.
func TestAttributeValuesAreShownEscaped(t *testing.T) {
	for _, a := range []diff.Attribute{
		{Name: "name", Before: "primary", After: textsafetest.Name},
		{Name: "pg_settings.work_mem", Before: nil, After: textsafetest.Name},
		{Name: "not_ours", Before: textsafetest.Name, After: 1},
	} {
		textsafetest.Terminal(t, a.Name, a.String())
	}
}
