package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/sizing"
	"github.com/neonform/neonform/state"
)

// A random walk over accounts of a few projects and random -target lists:
// a partial plan's budgets are the whole plan's, restricted as docs/cost.md
// says: each targeted compute as the plan leaves it (the whole plan's
// "after"), every other managed compute as it is now (its "before"), and a
// compute never made costs nothing. A budget a cent under that figure
// refuses the partial plan, naming the computes outside the targets. A
// failure prints its seed.
func TestPartialPlanBudgetIsTheAccounts(t *testing.T) {
	sizes := []float64{0.25, 0.5, 1, 2, 4, 8}
	hints := []float64{10, 100, 365}
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		w := randomAccount(r, sizes, hints)
		var targets []string
		for len(targets) == 0 {
			for _, a := range w.targetable {
				if r.IntN(3) == 0 {
					targets = append(targets, a)
				}
			}
		}
		whole := w.build(t, seed, nil, 0)
		partial := w.build(t, seed, targets, 0)
		sc, err := scopeOf(&Plan{Targets: targets})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want := map[string]float64{} // by project id; "" is the account
		for _, c := range whole.Changes {
			usd := c.Cost.Before.USDMax
			if sc.covers(c.Address) {
				usd = c.Cost.After.USDMax
			}
			want[c.ProjectID] += usd
			want[""] += usd
		}
		for _, b := range partial.Cost.Budgets {
			id := w.ids[b.Project]
			if sizing.Cents(b.USDMax) != sizing.Cents(want[id]) {
				t.Fatalf("seed %d: targets %v: budget of %q counts %s, want %s (the whole plan restricted)\n%s",
					seed, targets, b.Project, USD(b.USDMax), USD(want[id]), w)
			}
			if b.OutsideTargetsUSDMax == nil {
				t.Fatalf("seed %d: a partial plan's budget %+v does not say what is outside its targets", seed, b)
			}
		}
		if len(partial.Cost.Budgets) != 1+len(w.ids)-1 {
			t.Fatalf("seed %d: %d budgets, want %d", seed, len(partial.Cost.Budgets), len(w.ids))
		}
		if want[""] < 0.02 {
			continue
		}
		if p := w.build(t, seed, targets, want[""]-0.01); p != nil {
			t.Fatalf("seed %d: targets %v: a budget a cent under the account's ceiling %s was not refused\n%s", seed, targets, USD(want[""]), w)
		}
	}
}

// account is one random world: its configuration, state and live
// endpoints, made afresh for each plan (a plan may keep what it is given).
type account struct {
	make       func() (*config.Config, *state.State, *Live)
	ids        map[string]string // project label -> id; "" -> ""
	targetable []string
	text       strings.Builder
}

func (w *account) String() string { return w.text.String() }

// build plans with these targets, every budget far above any ceiling, or,
// with accountMax, the account's budget at it; nil when it was refused.
func (w *account) build(t *testing.T, seed uint64, targets []string, accountMax float64) *Plan {
	t.Helper()
	cfg, st, live := w.make()
	cfg.Settings.Budget = &config.Budget{MonthlyUSDMax: 1e9, DeclRange: difftest.At()}
	if accountMax > 0 {
		cfg.Settings.Budget.MonthlyUSDMax = accountMax
	}
	for _, p := range cfg.Projects {
		p.Budget = &config.Budget{MonthlyUSDMax: 1e9, DeclRange: difftest.At()}
	}
	p, diags := Build(cfg, st, live, Options{Scope: Scope{Targets: targets}})
	if diags.HasErrors() {
		if accountMax > 0 && strings.Contains(diags.String(), "outside the plan's targets") {
			return nil
		}
		t.Fatalf("seed %d: targets %v: %s\n%s", seed, targets, diags.String(), w)
	}
	if p == nil {
		t.Fatalf("seed %d: no plan and no error", seed)
	}
	return p
}

// randomAccount is two or three projects of a few computes each: managed
// and live (as the state says), configured only (to create), or managed
// and no longer configured (to delete); some with a usage hint.
func randomAccount(r *rand.Rand, sizes, hints []float64) *account {
	type compute struct {
		label           string
		liveMax, cfgMax float64
		managed, config bool
		hours           *float64
	}
	type project struct {
		label, id string
		computes  []compute
	}
	w := &account{ids: map[string]string{"": ""}}
	var projects []project
	for i := range 2 + r.IntN(2) {
		p := project{label: fmt.Sprintf("p%d", i), id: fmt.Sprintf("proj-%d", i)}
		w.ids[p.label] = p.id
		w.targetable = append(w.targetable, p.label)
		for j := range 1 + r.IntN(4) {
			c := compute{label: fmt.Sprintf("c%d", j), liveMax: sizes[r.IntN(len(sizes))], cfgMax: sizes[r.IntN(len(sizes))]}
			switch r.IntN(4) {
			case 0:
				c.config = true
			case 1:
				c.managed = true
			default:
				c.managed, c.config = true, true
			}
			if r.IntN(3) == 0 {
				c.hours = &hints[r.IntN(len(hints))]
			}
			if c.config {
				w.targetable = append(w.targetable, p.label+".main."+c.label)
			}
			fmt.Fprintf(&w.text, "%s.main.%s: managed %v (live max %v), configured %v (max %v), hours %v\n", p.label, c.label, c.managed, c.liveMax, c.config, c.cfgMax, c.hours)
			p.computes = append(p.computes, c)
		}
		projects = append(projects, p)
	}
	w.make = func() (*config.Config, *state.State, *Live) {
		st := &state.State{FormatVersion: state.FormatVersion, Lineage: "11111111-2222-4333-8444-555555555555", Serial: 7, Computes: map[string]*state.Compute{}}
		live := &Live{Projects: map[string]*LiveProject{}}
		var blocks []*config.Project
		for _, p := range projects {
			var computes []*config.Compute
			var eps []api.Endpoint
			for j, c := range p.computes {
				typ, rw := difftest.RO, j == 0
				if rw {
					typ = difftest.RW
				}
				if c.managed {
					ep := difftest.Endpoint(fmt.Sprintf("ep-%s-%s", p.id, c.label), p.id+"-main", typ, difftest.EpName(c.label), difftest.EpCU(0.25, c.liveMax))
					ep.ProjectID = p.id
					eps = append(eps, ep)
					st.Computes[p.label+".main."+c.label] = LiveValues(&ep).Record(ep.ID, p.id, false)
				}
				if c.config {
					opts := []difftest.Opt{difftest.CU(0.25, c.cfgMax)}
					if !rw {
						opts = append(opts, difftest.ReadOnly)
					}
					cc := difftest.Compute(c.label, opts...)
					cc.ActiveHours = c.hours
					computes = append(computes, cc)
				}
			}
			blocks = append(blocks, difftest.Project(p.label, p.id, difftest.BranchID("main", p.id+"-main", computes...)))
			live.Projects[p.id] = liveProject(p.id, eps...)
		}
		return launch(difftest.CfgOf(blocks...)), st, live
	}
	return w
}
