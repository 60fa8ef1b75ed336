package sizing

import "testing"

// Each case is at a boundary of the model (docs/cost.md): scaling to zero up
// to 16 CU and not above, "never", a disabled compute, and a hint at 0, 730
// and past the month.
func TestMonthlyCUHours(t *testing.T) {
	hint := func(h float64) Usage { return Usage{Min: 0.25, Max: 2, ActiveHours: h, HasActiveHours: true} }
	for _, c := range []struct {
		name string
		u    Usage
		want CUHours
	}{
		{"scales to zero: floor 0, ceiling max_cu all month", Usage{Min: 0.25, Max: 2}, CUHours{Min: 0, Max: 1460}},
		{"never suspends: floor min_cu all month", Usage{Min: 0.25, Max: 2, NeverSuspends: true}, CUHours{Min: 182.5, Max: 1460}},
		{"disabled: nothing", Usage{Min: 4, Max: 4, NeverSuspends: true, Disabled: true}, CUHours{}},
		{"a hint narrows the range to an estimate", hint(100), CUHours{Min: 25, Max: 200, Estimate: true}},
		{"a hint of 0 hours", hint(0), CUHours{Min: 0, Max: 0, Estimate: true}},
		{"a hint of the whole month", hint(730), CUHours{Min: 182.5, Max: 1460, Estimate: true}},
		{"a hint past the month is the month", hint(1000), CUHours{Min: 182.5, Max: 1460, Estimate: true}},
		{"a compute that never suspends is active all month whatever the hint",
			Usage{Min: 1, Max: 1, NeverSuspends: true, ActiveHours: 10, HasActiveHours: true}, CUHours{Min: 730, Max: 730}},
	} {
		if got := MonthlyCUHours(c.u); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestNeverSuspends(t *testing.T) {
	for _, c := range []struct {
		max     CU
		seconds int64
		want    bool
	}{
		{16, 0, false}, {16, 300, false}, {16, -1, true}, {18, 0, true}, {18, -1, true}, {0.25, 604800, false},
	} {
		if got := NeverSuspends(c.max, c.seconds); got != c.want {
			t.Errorf("NeverSuspends(%v, %d) = %v, want %v", c.max, c.seconds, got, c.want)
		}
	}
}

// The price comes from the table for Launch and Scale, with the table's
// date; Free and a paid plan not named have none; a contract price
// overrides any; no tier is "paid".
func TestPriceFor(t *testing.T) {
	for _, c := range []struct {
		tier     Tier
		contract float64
		want     Price
	}{
		{Launch, 0, Price{Tier: Launch, USDPerCUHour: 0.106, Updated: PricesUpdated}},
		{Scale, 0, Price{Tier: Scale, USDPerCUHour: 0.222, Updated: PricesUpdated}},
		{Free, 0, Price{Tier: Free, IncludedCUHoursPerProject: 100}},
		{Paid, 0, Price{Tier: Paid}},
		{"", 0, Price{Tier: Paid}},
		{Paid, 0.2, Price{Tier: Paid, USDPerCUHour: 0.2, Contract: true}},
		{Scale, 0.15, Price{Tier: Scale, USDPerCUHour: 0.15, Contract: true}},
	} {
		if got := PriceFor(c.tier, c.contract); got != c.want {
			t.Errorf("PriceFor(%q, %v) = %+v, want %+v", c.tier, c.contract, got, c.want)
		}
	}
	if got := PriceFor(Launch, 0).USD(1460); got != 154.76 {
		t.Errorf("1460 CU-hours on Launch: $%v, want $154.76", got)
	}
}
