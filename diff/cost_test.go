package diff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/sizing"
)

func launch(cfg *config.Config) *config.Config {
	cfg.Settings.AccountTier = sizing.Launch
	return cfg
}

func priced(min, max, usdMin, usdMax float64) CostRange {
	return CostRange{CUHoursMin: min, CUHoursMax: max, USDMin: usdMin, USDMax: usdMax, Known: true, Priced: true}
}

// Each change's cost before and after: an update from the live endpoint's
// values to the block's, a delete to nothing, a disabled compute to nothing;
// and the plan's totals are their sums.
func TestChangeCosts(t *testing.T) {
	primary := difftest.Endpoint("ep-p", difftest.BrMain, difftest.RW, difftest.EpName("primary"))                                        // 1 CU, scales to zero
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RO, difftest.EpName("old"), difftest.EpCU(2, 2), difftest.EpSuspend(-1)) // always on
	off := difftest.Endpoint("ep-off", difftest.BrMain, difftest.RO, difftest.EpName("off"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": primary, "shop.main.old": old, "shop.main.off": off})
	cfg := launch(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain,
		difftest.Compute("primary", difftest.CU(0.25, 2)),
		difftest.Compute("off", difftest.ReadOnly, difftest.Disabled)))))
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, primary, old, off)))

	for addr, want := range map[string]ChangeCost{
		"shop.main.primary": {Before: priced(0, 730, 0, 77.38), After: priced(0, 1460, 0, 154.76)},
		"shop.main.old":     {Before: priced(1460, 1460, 154.76, 154.76), After: priced(0, 0, 0, 0)},
		"shop.main.off":     {Before: priced(0, 730, 0, 77.38), After: priced(0, 0, 0, 0)},
	} {
		if got := changeAt(t, p, addr).Cost; got.Before != want.Before || got.After != want.After {
			t.Errorf("%s: cost %+v, want %+v", addr, got, want)
		}
	}
	want := PlanCost{Tier: sizing.Launch, PriceFrom: "plan", PriceTableDate: sizing.PricesUpdated,
		Before: priced(1460, 2920, 154.76, 309.52), After: priced(0, 1460, 0, 154.76)}
	got := *p.Cost
	if got.USDPerCUHour == nil || *got.USDPerCUHour != 0.106 {
		t.Errorf("price used: %v, want 0.106", got.USDPerCUHour)
	}
	got.USDPerCUHour = nil
	if got.Tier != want.Tier || got.PriceFrom != want.PriceFrom || got.PriceTableDate != want.PriceTableDate || got.Before != want.Before || got.After != want.After {
		t.Errorf("totals %+v, want %+v", got, want)
	}
}

// A size from a sensitive variable has no cost (it would tell the value),
// and the totals leave it out and count it.
func TestSensitiveSizeHasNoCost(t *testing.T) {
	c := difftest.Compute("primary", difftest.CU(0.25, 2))
	c.Sensitive = map[string]bool{"max_cu": true}
	cfg := launch(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c))))
	p := mustBuild(t, cfg, nil, liveOf(liveProject(difftest.Proj)))
	if got := changeAt(t, p, "shop.main.primary").Cost; got.Before.Known || got.After.Known {
		t.Errorf("cost of a sensitive size: %+v, want nothing known", got)
	}
	if p.Cost.Hidden != 1 || p.Cost.After != priced(0, 0, 0, 0) {
		t.Errorf("totals: hidden %d, after %+v; want 1 left out of a total of 0", p.Cost.Hidden, p.Cost.After)
	}
}

// The budget gate: a ceiling at the budget passes, a cent over fails,
// naming the budget's line and the change that adds most; a project's
// budget covers its computes alone.
func TestBudgetGate(t *testing.T) {
	build := func(account, project float64) (*Plan, []string) {
		cfg := launch(difftest.CfgOf(
			difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain,
				difftest.Compute("primary", difftest.CU(0.25, 2)), // $154.76
				difftest.Compute("replica", difftest.ReadOnly))))) // $77.38
		if account > 0 {
			cfg.Settings.Budget = &config.Budget{MonthlyUSDMax: account, DeclRange: difftest.At()}
		}
		if project > 0 {
			cfg.Projects[0].Budget = &config.Budget{MonthlyUSDMax: project, DeclRange: difftest.At()}
		}
		p, diags := Build(cfg, nil, liveOf(liveProject(difftest.Proj)), Options{})
		var details []string
		for _, d := range diags {
			details = append(details, d.Summary+": "+d.Detail)
		}
		return p, details
	}
	if p, errs := build(232.14, 0); p == nil || len(errs) > 0 {
		t.Fatalf("at the budget: %v", errs)
	} else if b := p.Cost.Budgets; len(b) != 1 || b[0] != (BudgetUse{MonthlyUSDMax: 232.14, USDMax: 232.14}) {
		t.Errorf("budgets: %+v", b)
	}
	if p, errs := build(232.15, 0); p == nil || len(errs) > 0 {
		t.Errorf("under the budget: %v", errs)
	}
	p, errs := build(232.13, 0)
	if p != nil || len(errs) != 1 {
		t.Fatalf("a cent over the budget: plan %v, diagnostics %v", p != nil, errs)
	}
	for _, want := range []string{"Plan over budget", "the account's computes could cost up to $232.14 a month", "over the budget of $232.13",
		"The changes that add most: shop.main.primary (+$154.76, up to $154.76); shop.main.replica (+$77.38, up to $77.38)"} {
		if !strings.Contains(errs[0], want) {
			t.Errorf("diagnostic %q, want %q in it", errs[0], want)
		}
	}
	if p, errs := build(0, 232.13); p != nil || len(errs) != 1 || !strings.Contains(errs[0], "the computes of project shop") {
		t.Errorf("a project's budget a cent over: %v", errs)
	}
}

// A cost range is written by hand, for speed: byte for byte what
// encoding/json writes for the same values, null where not known.
func TestCostRangeJSONIsEncodingJSONs(t *testing.T) {
	type viaReflection struct {
		CUHoursMin *float64 `json:"cu_hours_min"`
		CUHoursMax *float64 `json:"cu_hours_max"`
		USDMin     *float64 `json:"usd_min"`
		USDMax     *float64 `json:"usd_max"`
	}
	values := []float64{0, 1, 0.25, 182.5, 2920, 1e6, 40880, 1234567.891, 1e-7, 2.5e-6, 1e21, 3e22, -0.5, 0.1 + 0.2}
	for i, a := range values {
		b := values[(i+3)%len(values)]
		for _, r := range []CostRange{
			{},
			{Known: true, CUHoursMin: a, CUHoursMax: b},
			{Known: true, Priced: true, CUHoursMin: a, CUHoursMax: b, USDMin: b, USDMax: a},
		} {
			var want viaReflection
			if r.Known {
				want.CUHoursMin, want.CUHoursMax = &r.CUHoursMin, &r.CUHoursMax
				if r.Priced {
					want.USDMin, want.USDMax = &r.USDMin, &r.USDMax
				}
			}
			w, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.MarshalJSON()
			if err != nil || string(got) != string(w) {
				t.Errorf("%+v: wrote %s (%v), encoding/json writes %s", r, got, err, w)
			}
			var back CostRange
			if err := back.UnmarshalJSON(got); err != nil || back != r {
				t.Errorf("%s reads back as %+v (%v), want %+v", got, back, err, r)
			}
		}
	}
}
