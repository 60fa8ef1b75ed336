package views

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/sizing"
)

// Valid is what validate found in a valid configuration: its counts and
// each compute block's compute (a branch rule's once, for every branch it
// matches).
type Valid struct {
	Projects, Branches, Rules, Computes int
	// Priced: the configuration gives a price, or the CU-hours its plan
	// includes, to read each compute's cost a month by (docs/cost.md).
	Priced bool
	// Rows are the computes in the configuration's order.
	Rows []ValidCompute
}

// ValidCompute is one compute of a valid configuration, as its block says.
type ValidCompute struct {
	Address, Type string
	Size          sizing.Size
	// SizeHidden: the size comes from a sensitive variable.
	SizeHidden bool
	Disabled   bool
	// Cost is its cost a month; CostHidden when a sensitive value hides it.
	Cost        diff.CostRange
	CostHidden  bool
	ActiveHours *float64
	// EachBranch: a branch rule's compute, whose cost is each branch's.
	EachBranch bool
}

// WriteValid writes the success line and each compute's size (and cost, when
// priced) as a person reads it. Addresses are a file's text: shown escaped.
func WriteValid(w io.Writer, v *Valid) error {
	counts := english.Plural(v.Branches, "branch", "branches")
	if v.Rules > 0 {
		counts += ", " + english.Plural(v.Rules, "branch rule", "branch rules")
	}
	fmt.Fprintf(w, "Success! The configuration is valid: %s, %s, %s.\n",
		english.Plural(v.Projects, "project", "projects"), counts,
		english.Plural(v.Computes, "compute", "computes"))
	if v.Computes == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range v.Rows {
		size := sizing.Describe(c.Size).String()
		if c.SizeHidden {
			size = diff.HiddenSize
		}
		if c.Disabled {
			size += " (disabled)"
		}
		addr, typ := textsafe.Terminal(c.Address), textsafe.Terminal(c.Type)
		if !v.Priced {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", addr, typ, size)
			continue
		}
		cost := "not shown (a sensitive value)"
		if !c.CostHidden {
			cost = view.MonthlyCost(c.Cost, c.ActiveHours)
		}
		if c.EachBranch {
			cost = "cost a month, each branch: " + cost
		} else {
			cost = "cost a month: " + cost
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", addr, typ, size, cost)
	}
	return tw.Flush()
}
