package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/textsafe"
)

// The cost in the views (docs/cost.md): a line for each change whose cost
// changes, a fleet's sum, and the plan's totals and budgets. Only when the
// plan says a price, or the CU-hours its plan includes (diff.PlanCost.Shown):
// without either, a cost in CU-hours alone on every change would be noise.

// CostWords is a month's cost in words: "$0.00–$77.38" with a price,
// "0–730 CU-hours" without, one figure when the floor is the ceiling.
func CostWords(r diff.CostRange) string {
	switch {
	case !r.Known:
		return "not shown (a sensitive value)"
	case r.Priced:
		return span(diff.USD(r.USDMin), diff.USD(r.USDMax))
	}
	return span(hours(r.CUHoursMin), hours(r.CUHoursMax)) + " CU-hours"
}

func span(lo, hi string) string {
	if lo == hi {
		return lo
	}
	return lo + "–" + hi
}

// hours writes CU-hours as people read them: "182.5", "1,460".
func hours(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if frac != "" {
		return whole + "." + frac
	}
	return whole
}

// MonthlyCost is a compute's cost a month in words, labelled an estimate
// when a usage hint (expected_active_hours) made it.
func MonthlyCost(r diff.CostRange, hint *float64) string { return CostWords(r) + estimateWords(hint) }

// estimateWords labels a range a usage hint made.
func estimateWords(h *float64) string {
	if h == nil {
		return ""
	}
	return fmt.Sprintf(" (estimate: %s active hours a month)", hours(*h))
}

// changeCost is "$0.00–$77.38 -> $0.00–$154.76", or "" when the view shows
// no cost or the change does not change it.
func changeCost(p *diff.Plan, c *diff.Change) string {
	if !p.Cost.Shown() || c.Cost.Before == c.Cost.After {
		return ""
	}
	return CostWords(c.Cost.Before) + " -> " + CostWords(c.Cost.After) + estimateWords(c.Cost.ExpectedActiveHours)
}

// fleetCost is a fleet's sum: ", cost a month $0.00–$77.38 -> ...", or "".
func fleetCost(p *diff.Plan, f *fleet) string {
	if !p.Cost.Shown() {
		return ""
	}
	before, after := diff.CostRange{Known: true}, diff.CostRange{Known: true}
	estimate := ""
	for _, c := range f.changes {
		if !c.Cost.Before.Known || !c.Cost.After.Known {
			return ", cost a month not shown (a sensitive value)"
		}
		before, after = plus(before, c.Cost.Before), plus(after, c.Cost.After)
		if c.Cost.ExpectedActiveHours != nil {
			estimate = " (an estimate, from expected_active_hours)"
		}
	}
	if before == after {
		return ", cost a month " + CostWords(after) + estimate
	}
	return ", cost a month " + CostWords(before) + " -> " + CostWords(after) + estimate
}

// plus adds two ranges as a sum of instances.
func plus(a, b diff.CostRange) diff.CostRange {
	return diff.CostRange{
		CUHoursMin: a.CUHoursMin + b.CUHoursMin, CUHoursMax: a.CUHoursMax + b.CUHoursMax,
		USDMin: a.USDMin + b.USDMin, USDMax: a.USDMax + b.USDMax,
		Known: true, Priced: b.Priced,
	}
}

// costLine is one sentence of the plan's cost: its topic ("Cost a month",
// "Budget of project shop") and what it says.
type costLine struct{ topic, text string }

// costLines are the plan's totals and its budgets: "Cost a month (the Launch
// plan's $0.106 per CU-hour, prices of 2026-03-20): floor $0.00 -> $0.00,
// ceiling $77.38 -> $154.76 (+$77.38)." name shows a project's label as the
// view shows values.
func costLines(p *diff.Plan, name func(string) string) []costLine {
	pc := p.Cost
	if !pc.Shown() {
		return nil
	}
	var price string
	switch {
	case pc.PriceFrom == "contract":
		price = fmt.Sprintf("the contract price, %s per CU-hour", dollars(*pc.USDPerCUHour))
	case pc.USDPerCUHour != nil:
		price = fmt.Sprintf("the %s plan's %s per CU-hour, prices of %s", tierName(pc), dollars(*pc.USDPerCUHour), pc.PriceTableDate)
	default:
		price = fmt.Sprintf("the %s plan includes %s CU-hours a project", tierName(pc), hours(pc.IncludedCUHoursPerProject))
	}
	text := fmt.Sprintf("floor %s, ceiling %s (%s).",
		moveWords(pc.Before, pc.After, false), moveWords(pc.Before, pc.After, true), price)
	if pc.Estimated > 0 {
		text += " " + english.Plural(pc.Estimated, "compute is an estimate", "computes are estimates") + " from expected_active_hours."
	}
	if pc.Hidden > 0 {
		text += " " + english.Plural(pc.Hidden, "compute is", "computes are") + " left out: a sensitive variable sets its cost."
	}
	lines := []costLine{{"Cost a month", text}}
	for _, b := range pc.Budgets {
		whose := "Budget"
		if b.Project != "" {
			whose = "Budget of project " + name(b.Project)
		}
		if b.Sensitive {
			// Within the budget, by an amount a reader could tell the
			// sensitive compute's cost from.
			lines = append(lines, costLine{whose, fmt.Sprintf("ceiling %s, within %s a month.", diff.SensitiveValue, diff.USD(b.MonthlyUSDMax))})
			continue
		}
		text := fmt.Sprintf("ceiling %s of %s a month (%d%%).", diff.USD(b.USDMax), diff.USD(b.MonthlyUSDMax), int(100*b.USDMax/b.MonthlyUSDMax))
		if b.OutsideTargetsUSDMax != nil {
			// A partial plan: the budget is still the whole bill.
			text += fmt.Sprintf(" %s of it is the computes outside the targets, as they are now.", diff.USD(*b.OutsideTargetsUSDMax))
		}
		lines = append(lines, costLine{whose, text})
	}
	return lines
}

// moveWords is one end of the totals before and after, with the change:
// "$77.38 -> $154.76 (+$77.38)".
func moveWords(before, after diff.CostRange, ceiling bool) string {
	b, a := before.CUHoursMin, after.CUHoursMin
	if before.Priced {
		b, a = before.USDMin, after.USDMin
	}
	if ceiling {
		b, a = before.CUHoursMax, after.CUHoursMax
		if before.Priced {
			b, a = before.USDMax, after.USDMax
		}
	}
	format := func(x float64) string { return hours(x) + " CU-hours" }
	if before.Priced {
		format = diff.USD
	}
	out := format(b) + " -> " + format(a)
	switch d := math.Round((a-b)*100) / 100; {
	case d > 0:
		out += " (+" + format(d) + ")"
	case d < 0:
		out += " (-" + format(-d) + ")"
	}
	return out
}

// dollars writes a price per CU-hour with as many decimals as it has: "$0.106".
func dollars(x float64) string { return "$" + strconv.FormatFloat(x, 'f', -1, 64) }

func tierName(pc *diff.PlanCost) string {
	return strings.ToUpper(string(pc.Tier[:1])) + string(pc.Tier[1:])
}

// costCell is a change's cost in the comment's table: before -> after when
// it changes, else what it costs.
func costCell(p *diff.Plan, c *diff.Change) string {
	if w := changeCost(p, c); w != "" {
		return w
	}
	return MonthlyCost(c.Cost.After, c.Cost.ExpectedActiveHours)
}

// dollarsSafe keeps a price in the comment from reading as mathematics:
// GitHub renders text between two $ as a formula. The rest is the view's own
// words and numbers.
func dollarsSafe(s string) string { return strings.ReplaceAll(s, "$", "&#36;") }

// costCallouts are the comment's cost lines, one callout each: how close
// the plan takes the account to each budget, with nothing to change too.
func costCallouts(p *diff.Plan) string {
	var b strings.Builder
	for _, l := range costLines(p, textsafe.MarkdownCode) {
		// Only a project's label comes from a file (escaped by name); a $
		// is escaped all the same, or GitHub reads $...$ as mathematics.
		fmt.Fprintf(&b, "> - **%s**: %s\n", dollarsSafe(l.topic), dollarsSafe(strings.TrimSuffix(l.text, ".")))
	}
	return b.String()
}
