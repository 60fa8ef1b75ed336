package sizing

import "math"

// The cost model (docs/cost.md): what a compute can cost in a month, from its
// size, whether it scales to zero, and the price of a CU-hour on the account's
// plan (plans.go). It is a range, because what a compute costs depends on how
// long it is active, which only its use decides: the floor is what it costs
// when it is never woken (0 when it scales to zero, its minimum size all month
// when it never suspends), the ceiling what it costs when it runs at its
// maximum size all month. A usage hint (expected_active_hours) narrows the
// range to an estimate. Storage, branches and data transfer are not computes
// and are left out.

// HoursPerMonth is the month the service bills by: 730 hours (PlansPage's
// examples, 24 x 365 / 12).
const HoursPerMonth = 730

// NeverSuspends reports whether a compute, once started, stays active: its
// suspend timeout is "never" (-1, as the service writes it), or it is larger
// than 16 CU, which never scales to zero (MaxScaleToZeroCU).
func NeverSuspends(max CU, suspendSeconds int64) bool {
	return suspendSeconds == -1 || max > MaxScaleToZeroCU
}

// Usage is what the cost of one compute follows from.
type Usage struct {
	Min, Max      CU
	NeverSuspends bool
	// Disabled: the compute cannot run, and costs nothing.
	Disabled bool
	// ActiveHours is the usage hint, hours a month the compute is expected to
	// be active; ignored unless HasActiveHours. A compute that never suspends
	// is active all month whatever the hint says.
	ActiveHours    float64
	HasActiveHours bool
}

// CUHours is a month of a compute's CU-hours, the floor and the ceiling.
// Estimate: a usage hint narrowed the range, so it is no bound but a guess.
type CUHours struct {
	Min, Max float64
	Estimate bool
}

// MonthlyCUHours is the range of CU-hours a compute can use in a month.
func MonthlyCUHours(u Usage) CUHours {
	switch {
	case u.Disabled:
		return CUHours{}
	case u.NeverSuspends:
		return CUHours{Min: Round(u.Min * HoursPerMonth), Max: Round(u.Max * HoursPerMonth)}
	case u.HasActiveHours:
		h := min(max(u.ActiveHours, 0), HoursPerMonth)
		return CUHours{Min: Round(u.Min * h), Max: Round(u.Max * h), Estimate: true}
	}
	return CUHours{Min: 0, Max: Round(u.Max * HoursPerMonth)}
}

// Price is what a CU-hour costs the account, and where that comes from.
type Price struct {
	// Tier is the account's plan (account_tier).
	Tier Tier
	// USDPerCUHour is 0 when nothing says a price: the Free plan, which
	// includes its hours, and a paid plan not named, without a contract price.
	USDPerCUHour float64
	// Contract: the price is the configuration's price_per_cu_hour, not the
	// plan table's.
	Contract bool
	// Updated is the date of the plan table's price; "" for a contract price.
	Updated string
	// IncludedCUHoursPerProject are the hours each project gets at no cost
	// (the Free plan's).
	IncludedCUHoursPerProject float64
}

// PriceFor is the price of a CU-hour on a tier, or the contract price when
// one is given (contract > 0), which overrides the table's. No tier is Paid,
// the default of account_tier.
func PriceFor(t Tier, contract float64) Price {
	if t == "" {
		t = Paid
	}
	p := plans[t]
	out := Price{Tier: t, IncludedCUHoursPerProject: p.IncludedCUHoursPerProject}
	switch {
	case contract > 0:
		out.USDPerCUHour, out.Contract = contract, true
	case p.USDPerCUHour > 0:
		out.USDPerCUHour, out.Updated = p.USDPerCUHour, PricesUpdated
	}
	return out
}

// Known reports whether there is a price to turn CU-hours into dollars.
func (p Price) Known() bool { return p.USDPerCUHour > 0 }

// USD is the price of some CU-hours, to the cent.
func (p Price) USD(cuHours float64) float64 { return Round(cuHours * p.USDPerCUHour) }

// Round keeps two decimals, of CU-hours or of dollars (the cent): sums of
// sizes such as 0.25 x 730 stay exact, and a sum of many floats prints the
// same on every machine.
func Round(x float64) float64 { return math.Round(x*100) / 100 }

// Cents is a price in whole cents, for comparing two prices exactly.
func Cents(x float64) int64 { return int64(math.Round(x * 100)) }
