package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/sizing"
)

// What the configuration says of cost (docs/cost.md): a contract price per
// CU-hour in the neonform block, budgets for the account and for a project,
// and a usage hint on a compute. None of it is sent to the service, so none
// of it is a managed attribute (internal/managed): the plan reads it to show
// what the computes may cost, and to refuse a plan over a budget.

// Budget is a budget block: the most the computes it covers may cost in a
// month at their ceiling (each at its maximum size, active all month).
type Budget struct {
	MonthlyUSDMax float64
	// DeclRange is monthly_usd_max's, where a plan over the budget points.
	DeclRange hcl.Range
}

// budgetSchema is a budget block's.
var budgetSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "monthly_usd_max"}}}

// activeHoursArgument is the compute block's usage hint: how many hours a
// month the compute is expected to be active.
const activeHoursArgument = "expected_active_hours"

// Price is the price of a CU-hour the settings give: the contract price when
// price_per_cu_hour is written, else the account's plan's (sizing.PriceFor).
func (s Settings) Price() sizing.Price { return sizing.PriceFor(s.AccountTier, s.PricePerCUHour) }

// decodePrice reads price_per_cu_hour, a price in US dollars above zero.
func (l *loader) decodePrice(s *Settings, a *hclsyntax.Attribute) {
	v, state, _ := l.eval(a, cty.Number, "a price in US dollars, such as 0.2")
	if state != valid {
		return
	}
	if f := numberValue(v); f > 0 && f < 1000 {
		s.PricePerCUHour = f
		return
	}
	l.errorf(a.Expr.Range(), "Invalid price per CU-hour",
		"price_per_cu_hour is what a CU-hour costs the account in US dollars, such as 0.2 (the Launch plan's is %s and the Scale plan's %s); it must be above 0 and below 1000. Remove it to use the plan's price.",
		priceWords(sizing.Launch), priceWords(sizing.Scale))
}

func priceWords(t sizing.Tier) string {
	p, _ := sizing.PlanOf(t)
	return fmt.Sprintf("%g", p.USDPerCUHour)
}

// decodeBudget reads the budget blocks of a block (at most one); owner names
// that block in messages ("The neonform block", "Project shop").
func (l *loader) decodeBudget(blocks []*hclsyntax.Block, owner string) *Budget {
	if len(blocks) == 0 {
		return nil
	}
	for _, dup := range blocks[1:] {
		l.errorf(dup.TypeRange, "Duplicate budget block",
			"%s already has a budget block at %s; keep one, with the lower monthly_usd_max.", owner, where(blocks[0].TypeRange))
	}
	b := blocks[0]
	c, diags := bodyContent(b.Body, budgetSchema, "a budget block")
	l.diags = append(l.diags, diags...)
	a := c.Attributes["monthly_usd_max"]
	if a == nil {
		l.errorf(b.DefRange(), "Missing monthly_usd_max",
			"A budget block says the most the computes may cost in a month: add monthly_usd_max = 500 (US dollars).")
		return nil
	}
	v, state, _ := l.eval(a, cty.Number, "a number of US dollars, such as 500")
	if state == omitted {
		// null would switch the budget off without a word: a budget block
		// is there to gate the plan, so it needs a number, as an empty one.
		l.errorf(a.Expr.Range(), "Missing monthly_usd_max",
			"monthly_usd_max is null here, which would leave the budget unchecked. Give it a number of US dollars, such as 500, or remove the budget block.")
		return nil
	}
	if state != valid {
		return nil
	}
	f := numberValue(v)
	if f <= 0 || f > 1e9 {
		l.errorf(a.Expr.Range(), "Invalid budget",
			"monthly_usd_max is the most the computes may cost in a month, in US dollars, such as 500: above 0, and at most 1000000000.")
		return nil
	}
	return &Budget{MonthlyUSDMax: f, DeclRange: a.SrcRange}
}

// checkBudgetPrice refuses a budget that no price can be checked against.
func (l *loader) checkBudgetPrice(b *Budget) {
	if b == nil || l.cfg.Settings.Price().Known() {
		return
	}
	l.errorf(b.DeclRange, "Budget without a price",
		"A budget is checked against what the computes cost, and account_tier = %q gives no price per CU-hour. Set account_tier to the account's plan (\"launch\" or \"scale\"), or write the contract price in the neonform block, as price_per_cu_hour = 0.2.",
		l.cfg.Settings.AccountTier)
}

// decodeActiveHours reads the usage hint, hours a month from 0 to 730. It
// is read after the size and the suspend timeout: a compute that never
// suspends is active all month, and a hint would only contradict that.
func (c *computeAttrs) decodeActiveHours() {
	v, state := c.eval(activeHoursArgument, cty.Number, "a number of hours a month, such as 120")
	if state != valid {
		return
	}
	h := numberValue(v)
	if h < 0 || h > sizing.HoursPerMonth {
		c.fail(activeHoursArgument, "Invalid expected active hours",
			"expected_active_hours is how many hours a month the compute is expected to be active, from 0 to %d (a whole month); it narrows the plan's cost range to an estimate.", sizing.HoursPerMonth)
		return
	}
	if !c.bad["suspend_timeout"] && !c.bad["max_cu"] && c.cp.NeverSuspends() {
		c.fail(activeHoursArgument, "Usage hint on a compute that never suspends",
			"This compute never scales to zero (suspend_timeout = \"never\", or larger than %s CU), so it is active all %d hours of a month and its cost needs no hint. Remove expected_active_hours, or let it suspend.",
			sizing.Format(sizing.MaxScaleToZeroCU), sizing.HoursPerMonth)
		return
	}
	c.cp.ActiveHours = &h
}
