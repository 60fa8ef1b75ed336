package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

// What a plan's computes cost in a month (docs/cost.md): each change's range
// before and after, the plan's totals, and the budget gate. The model itself
// (floor, ceiling, the usage hint, the price) is sizing's (sizing/cost.go);
// here it is applied to the values a change has before and after.
//
// The cost is derived data, made from the values and the configuration's
// price and hints, which the plan file does not carry: Verify does not check
// it, and nothing apply does depends on it. The budget gate runs when the
// plan is made, before it is shown or saved.

// CostRange is a month of CU-hours and its price, from the floor to the
// ceiling. Known is false when the cost cannot be said (the size comes from a
// sensitive variable), Priced when there is no price per CU-hour: the plan
// file then writes null.
type CostRange struct {
	CUHoursMin, CUHoursMax float64
	USDMin, USDMax         float64
	Known, Priced          bool
}

// ChangeCost is a change's cost a month before and after it; a compute that
// does not exist (before a create, after a delete) costs 0.
type ChangeCost struct {
	Before CostRange `json:"before"`
	After  CostRange `json:"after"`
	// ExpectedActiveHours is the compute's usage hint: its ranges are
	// estimates, not bounds.
	ExpectedActiveHours *float64 `json:"expected_active_hours,omitempty"`
}

// PlanCost is the plan's totals: what the computes it plans cost a month
// before and after it, and the price that says it.
type PlanCost struct {
	Tier sizing.Tier `json:"tier"`
	// USDPerCUHour is the price used; nil when there is none.
	USDPerCUHour *float64 `json:"usd_per_cu_hour"`
	// PriceFrom says where the price comes from: "plan" (the plan table's
	// price for the tier), "contract" (price_per_cu_hour), or "none".
	PriceFrom string `json:"price_from"`
	// PriceTableDate is the date of the plan table's prices.
	PriceTableDate string `json:"price_table_date"`
	// IncludedCUHoursPerProject are the CU-hours the plan gives each project
	// at no cost (Free).
	IncludedCUHoursPerProject float64   `json:"included_cu_hours_per_project,omitempty"`
	Before                    CostRange `json:"before"`
	After                     CostRange `json:"after"`
	// Hidden counts the computes left out of the totals because their size
	// comes from a sensitive variable.
	Hidden int `json:"hidden,omitempty"`
	// Estimated counts the computes whose range is an estimate (a usage hint).
	Estimated int `json:"estimated,omitempty"`
	// Budgets are the budget blocks and the ceiling after the plan of what
	// each covers.
	Budgets []BudgetUse `json:"budgets,omitempty"`
}

// BudgetUse is one budget and how much of it the plan's ceiling takes.
type BudgetUse struct {
	// Project is the project's label; "" for the account's budget.
	Project       string  `json:"project,omitempty"`
	MonthlyUSDMax float64 `json:"monthly_usd_max"`
	// USDMax is the ceiling after the plan of the computes the budget covers.
	USDMax float64 `json:"usd_max"`
	// OutsideTargetsUSDMax is, in a partial plan (-target), the part of
	// USDMax that the computes outside its targets cost as they are now;
	// nil in a whole plan, which covers every compute.
	OutsideTargetsUSDMax *float64 `json:"outside_targets_usd_max,omitempty"`
	// Sensitive: the ceiling counts a compute whose cost a sensitive
	// variable sets, so the views and the printed JSON do not show it (a
	// reader could subtract the others); the gate counts it all the same.
	Sensitive bool `json:"sensitive,omitempty"`
}

// Shown reports whether the views show the cost: when there is a price, or
// the plan includes CU-hours (Free). With neither (a paid plan not named and
// no contract price), the views say nothing; the plan file still has the
// CU-hours.
func (pc *PlanCost) Shown() bool {
	return pc != nil && (pc.USDPerCUHour != nil || pc.IncludedCUHoursPerProject > 0)
}

// costOf is the cost of a compute with these values: the floor and the
// ceiling, or the estimate a usage hint makes of them.
func costOf(v Values, hours *float64, price sizing.Price) CostRange {
	u := v.Usage()
	if hours != nil {
		u.ActiveHours, u.HasActiveHours = *hours, true
	}
	h := sizing.MonthlyCUHours(u)
	r := CostRange{CUHoursMin: h.Min, CUHoursMax: h.Max, Known: true}
	if price.Known() {
		r.USDMin, r.USDMax, r.Priced = price.USD(h.Min), price.USD(h.Max), true
	}
	return r
}

// none is the cost of a compute that does not exist.
func none(price sizing.Price) CostRange { return CostRange{Known: true, Priced: price.Known()} }

// ConfiguredCost is what a compute block's compute costs a month, as
// validate lists it; false when its size, suspend timeout, state or hint
// comes from a sensitive variable, and so cannot be shown.
func ConfiguredCost(c *config.Compute, price sizing.Price) (CostRange, bool) {
	if costSensitive(c) {
		return CostRange{}, false
	}
	return costOf(configuredValues(c), c.ActiveHours, price), true
}

// configuredValues are the values of a compute block its cost follows from
// (managed.Attribute.Costed: managed.Applied.Usage reads them).
func configuredValues(c *config.Compute) Values { return Values{Applied: c.Applied} }

// spend is the ceiling after the plan of a project's computes, those whose
// cost is sensitive included, and the addresses of those (secret).
type spend struct {
	usd    float64
	secret []string
}

// costAttributes are the managed attributes a compute's cost follows from.
var costAttributes = slices.DeleteFunc(slices.Clone(managed.All), func(a *managed.Attribute) bool { return !a.Costed })

// costSensitive reports whether a compute's cost would tell a value that
// comes from a sensitive variable.
func costSensitive(c *config.Compute) bool {
	if c.Sensitive["expected_active_hours"] {
		return true
	}
	for _, a := range costAttributes {
		if a.Sensitive(c.Sensitive) {
			return true
		}
	}
	return false
}

// changeSensitive is costSensitive of a change with no compute block (a
// delete), as the state recorded it.
func changeSensitive(c *Change) bool {
	for _, a := range costAttributes {
		if slices.Contains(c.Sensitive, a.Name) {
			return true
		}
	}
	return false
}

// addCosts gives each change its cost and the plan its totals and budgets,
// from the configuration (its price, hints and budgets) and the live
// endpoints the plan recorded; rest is what the computes outside a partial
// plan's targets cost (cost_outside.go), which its budgets count too. It
// returns an error diagnostic for each budget the ceiling goes over.
func addCosts(plan *Plan, cfg *config.Config, inConfig map[string]*config.Compute, rest *outside) hcl.Diagnostics {
	price := cfg.Settings.Price()
	live := map[string]*LiveEndpoint{}
	for i := range plan.Projects {
		for j := range plan.Projects[i].Endpoints {
			ep := &plan.Projects[i].Endpoints[j]
			live[ep.ID] = ep
		}
	}
	total := &PlanCost{Tier: price.Tier, PriceFrom: "none", PriceTableDate: sizing.PricesUpdated,
		IncludedCUHoursPerProject: price.IncludedCUHoursPerProject, Before: none(price), After: none(price)}
	if price.Known() {
		p := price.USDPerCUHour
		total.USDPerCUHour, total.PriceFrom = &p, "plan"
		if price.Contract {
			total.PriceFrom = "contract"
		}
	}
	byProject := map[string]*spend{}
	spent := func(project string) *spend {
		if byProject[project] == nil {
			byProject[project] = &spend{}
		}
		return byProject[project]
	}
	for i := range plan.Changes {
		c := &plan.Changes[i]
		cc := &c.Cost
		cp := inConfig[c.Address]
		if (cp != nil && costSensitive(cp)) || changeSensitive(c) {
			// Left out of what the views show, never out of the budgets:
			// a sensitive value hides the cost, not the gate.
			total.Hidden++
			if c.Action != Delete && cp != nil {
				sp := spent(c.ProjectID)
				sp.usd += costOf(configuredValues(cp), cp.ActiveHours, price).USDMax
				sp.secret = append(sp.secret, c.Address)
			}
			continue
		}
		var hours *float64
		if cp != nil && c.Action != Delete {
			hours = cp.ActiveHours
		}
		cc.ExpectedActiveHours = hours
		if hours != nil {
			total.Estimated++
		}
		cc.Before = none(price)
		if c.Action != Create {
			if ep := live[c.EndpointID]; ep != nil {
				cc.Before = costOf(ep.Values, hours, price)
			} else {
				cc.Before = CostRange{}
			}
		}
		cc.After = none(price)
		if c.Action != Delete && cp != nil {
			cc.After = costOf(configuredValues(cp), hours, price)
		}
		total.Before = total.Before.plus(cc.Before)
		total.After = total.After.plus(cc.After)
		spent(c.ProjectID).usd += cc.After.USDMax
	}
	plan.Cost = total
	return checkBudgets(plan, cfg, byProject, rest)
}

// plus adds a compute's range to a total; what is not known is left out
// (Hidden counts it).
func (r CostRange) plus(o CostRange) CostRange {
	if !o.Known {
		return r
	}
	r.CUHoursMin = sizing.Round(r.CUHoursMin + o.CUHoursMin)
	r.CUHoursMax = sizing.Round(r.CUHoursMax + o.CUHoursMax)
	r.USDMin = sizing.Round(r.USDMin + o.USDMin)
	r.USDMax = sizing.Round(r.USDMax + o.USDMax)
	return r
}

// checkBudgets records each budget's use and refuses the plan when the
// ceiling after it goes over one: a cent over is over, exactly at it is not.
// A partial plan's budgets count the computes outside its targets too
// (rest; cost_outside.go).
func checkBudgets(plan *Plan, cfg *config.Config, byProject map[string]*spend, rest *outside) hcl.Diagnostics {
	var diags hcl.Diagnostics
	check := func(b *config.Budget, project *config.Project, used spend) {
		projectID := ""
		if project != nil {
			projectID = project.ID
		}
		others, n := rest.of(projectID)
		all := spend{usd: used.usd + others.usd, secret: append(slices.Clone(used.secret), others.secret...)}
		use := BudgetUse{MonthlyUSDMax: b.MonthlyUSDMax, USDMax: sizing.Round(all.usd), Sensitive: len(all.secret) > 0}
		if rest != nil {
			o := sizing.Round(others.usd)
			use.OutsideTargetsUSDMax = &o
		}
		what := "the account's computes"
		if project != nil {
			use.Project = project.Label
			what = "the computes of project " + project.Label
		}
		plan.Cost.Budgets = append(plan.Cost.Budgets, use)
		if sizing.Cents(all.usd) <= sizing.Cents(b.MonthlyUSDMax) {
			return
		}
		rng := b.DeclRange
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Plan over budget",
			Detail: fmt.Sprintf("After this plan, %s %s.%s %s. Lower their max_cu, disable the ones not needed, or raise monthly_usd_max. Nothing was saved or changed.",
				what, overWords(b, all), outsideWords(rest != nil, n, others, used), addMost(plan, project, used.secret)),
			Subject: &rng,
		})
	}
	if b := cfg.Settings.Budget; b != nil {
		var all spend
		for _, p := range plan.Projects {
			if sp := byProject[p.ID]; sp != nil {
				all.usd += sp.usd
				all.secret = append(all.secret, sp.secret...)
			}
		}
		check(b, nil, all)
	}
	for _, p := range cfg.Projects {
		if p.Budget != nil {
			used := spend{}
			if sp := byProject[p.ID]; sp != nil {
				used = *sp
			}
			check(p.Budget, p, used)
		}
	}
	return diags
}

// overWords says how far over a budget a ceiling is, or, when a sensitive
// variable sets a compute's cost, only that it is over.
func overWords(b *config.Budget, all spend) string {
	if len(all.secret) > 0 {
		return fmt.Sprintf("could cost more than the budget of %s a month (each at its maximum size all month, or for the hours its expected_active_hours says; the ceiling is not shown, as a sensitive variable sets the cost of %s)",
			USD(b.MonthlyUSDMax), english.Plural(len(all.secret), "compute", "computes"))
	}
	return fmt.Sprintf("could cost up to %s a month (each at its maximum size all month, or for the hours its expected_active_hours says), over the budget of %s", USD(all.usd), USD(b.MonthlyUSDMax))
}

// outsideWords says, for a partial plan, what of the ceiling is the
// targeted computes' and what the others', which the plan leaves as they
// are: "" for a whole plan. Neither figure is shown when a sensitive
// variable sets a cost the ceiling counts.
func outsideWords(partial bool, n int, others, targeted spend) string {
	if !partial {
		return ""
	}
	computes := english.Plural(n, "compute", "computes")
	if len(others.secret) > 0 || len(targeted.secret) > 0 {
		return fmt.Sprintf(" It counts the %s outside the plan's targets as they are now: the plan leaves them alone, but the budget is the whole bill.", computes)
	}
	return fmt.Sprintf(" The %s outside the plan's targets, which it leaves alone, cost up to %s as they are now; the targeted computes, up to %s after the plan.",
		computes, USD(others.usd), USD(targeted.usd))
}

// addMost names the three computes of a project (nil: of every project)
// whose change raises the ceiling most, or, when none raises it, the three
// that cost most; after them, those whose cost is sensitive (secret), each
// "(sensitive)" and no figure.
func addMost(plan *Plan, project *config.Project, secret []string) string {
	type row struct {
		address     string
		added, cost float64
	}
	var rows []row
	raises := false
	for _, c := range plan.Changes {
		if project != nil && c.ProjectID != project.ID || !c.Cost.After.Known || c.Cost.After.USDMax == 0 {
			continue
		}
		added := c.Cost.After.USDMax - c.Cost.Before.USDMax
		raises = raises || added > 0
		rows = append(rows, row{c.Address, added, c.Cost.After.USDMax})
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if raises && a.added != b.added {
			return cmpDesc(a.added, b.added)
		}
		return cmpDesc(a.cost, b.cost)
	})
	var out []string
	for _, r := range rows[:min(3, len(rows))] {
		if raises && r.added > 0 {
			out = append(out, fmt.Sprintf("%s (+%s, up to %s)", r.address, USD(r.added), USD(r.cost)))
		} else if !raises {
			out = append(out, fmt.Sprintf("%s (up to %s)", r.address, USD(r.cost)))
		}
	}
	for _, addr := range secret[:min(3, len(secret))] {
		out = append(out, addr+" (sensitive)")
	}
	if raises {
		return "The changes that add most: " + strings.Join(out, "; ")
	}
	return "The computes that cost most: " + strings.Join(out, "; ")
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// USD writes dollars as people read a price: "$77.38", "$1,234.50".
func USD(x float64) string {
	cents := sizing.Cents(x)
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	whole := fmt.Sprint(cents / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s$%s.%02d", sign, whole, cents%100)
}

// costJSON is CostRange in a plan file: null where it is not known.
type costJSON struct {
	CUHoursMin *float64 `json:"cu_hours_min"`
	CUHoursMax *float64 `json:"cu_hours_max"`
	USDMin     *float64 `json:"usd_min"`
	USDMax     *float64 `json:"usd_max"`
}

// MarshalJSON writes null for what is not known. A plan holds a cost for
// every compute, both sides of each change: written with appends rather
// than through encoding/json's reflection, which cost a tenth of a second
// at 10,000 projects (docs/PERFORMANCE.md).
func (r CostRange) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 96)
	field := func(name string, v float64, known bool) {
		b = append(b, name...)
		if !known {
			b = append(b, "null"...)
			return
		}
		b = appendJSONFloat(b, v)
	}
	field(`{"cu_hours_min":`, r.CUHoursMin, r.Known)
	field(`,"cu_hours_max":`, r.CUHoursMax, r.Known)
	field(`,"usd_min":`, r.USDMin, r.Known && r.Priced)
	field(`,"usd_max":`, r.USDMax, r.Known && r.Priced)
	return append(b, '}'), nil
}

// appendJSONFloat writes f as encoding/json does: decimal, or an exponent
// outside 1e-6 to 1e21, without a leading zero in a negative exponent.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// UnmarshalJSON reads what MarshalJSON writes; a plan written before costs
// were kept has none, which reads as not known.
func (r *CostRange) UnmarshalJSON(b []byte) error {
	*r = CostRange{}
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	var j costJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if j.CUHoursMin != nil && j.CUHoursMax != nil {
		r.CUHoursMin, r.CUHoursMax, r.Known = *j.CUHoursMin, *j.CUHoursMax, true
	}
	if r.Known && j.USDMin != nil && j.USDMax != nil {
		r.USDMin, r.USDMax, r.Priced = *j.USDMin, *j.USDMax, true
	}
	return nil
}
