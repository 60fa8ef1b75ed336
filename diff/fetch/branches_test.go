package fetch

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/state"
)

// recordedShop is a project "shop" whose branch block "main" is found by
// the name mainName, with two computes the state records on br-main, found
// by the name "main", and the reader that serves it: endpoints live on
// br-main and a branch list in which "main" is br-main.
func recordedShop(mainName string) (*config.Config, *state.State, *fakeReader) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", mainName, difftest.Compute("primary"), difftest.Compute("reports", difftest.ReadOnly))))
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{
		"shop.main.primary": difftest.Endpoint("ep-primary", "br-main", difftest.RW, difftest.EpName("primary")),
		"shop.main.reports": difftest.Endpoint("ep-reports", "br-main", difftest.RO, difftest.EpName("reports")),
	})
	for _, c := range st.Computes {
		c.BranchName = "main"
	}
	f := &fakeReader{
		endpoints: map[string][]api.Endpoint{difftest.Proj: {difftest.Endpoint("ep-primary", "br-main", difftest.RW, difftest.EpName("primary")), difftest.Endpoint("ep-reports", "br-main", difftest.RO, difftest.EpName("reports"))}},
		branches:  map[string][]api.Branch{difftest.Proj: {{ID: "br-main", Name: "main"}, {ID: "br-dev", Name: "dev"}}},
	}
	return cfg, st, f
}

func fetchCalls(t *testing.T, f *fakeReader, cfg *config.Config, st *state.State, opts Options) (*diff.Live, string) {
	t.Helper()
	opts.Parallelism = 2
	live, diags := Live(context.Background(), f, cfg, st, opts)
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	return live, fmt.Sprint(f.calls)
}

// In the steady state a branch found by name is the branch the state
// records its computes on: one request, no list of branches, and the plan
// is the same as with the list.
func TestRecordedBranchNeedsNoList(t *testing.T) {
	cfg, st, f := recordedShop("main")
	live, calls := fetchCalls(t, f, cfg, st, Options{})
	if calls != "map[endpoints "+difftest.Proj+":1]" {
		t.Errorf("calls %s: want one list of endpoints and nothing else", calls)
	}
	lp := live.Projects[difftest.Proj]
	if lp.Branches != nil || lp.Known["main"] != "br-main" {
		t.Errorf("branches %v, known %v: want not listed, main known as br-main", lp.Branches, lp.Known)
	}
	p := plantest.MustBuild(t, cfg, st, live)
	f.calls = nil
	listed, _ := fetchCalls(t, f, cfg, st, Options{RefreshBranches: true})
	if q := plantest.MustBuild(t, cfg, st, listed); fmt.Sprint(q.Changes, q.Steps) != fmt.Sprint(p.Changes, p.Steps) || p.HasChanges() {
		t.Errorf("the plan differs with the branches listed:\n%v\n%v", p.Changes, q.Changes)
	}
}

// Every case in which the state cannot say which branch a block means lists
// the branches, and the block is found by its name.
func TestBranchesAreListedWhenTheStateCannotSay(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(cfg *config.Config, st *state.State, f *fakeReader)
		opts Options
	}{
		{"asked to", func(*config.Config, *state.State, *fakeReader) {}, Options{RefreshBranches: true}},
		{"no state", func(_ *config.Config, st *state.State, _ *fakeReader) { st.Computes = nil }, Options{}},
		{"a new branch block", func(cfg *config.Config, _ *state.State, _ *fakeReader) {
			b := difftest.BranchNamed("dev", "dev", difftest.Compute("primary"))
			cfg.Projects[0].Branches = append(cfg.Projects[0].Branches, b)
		}, Options{}},
		{"the recorded branch has no live endpoint (deleted?)", func(_ *config.Config, _ *state.State, f *fakeReader) {
			f.endpoints[difftest.Proj] = nil
		}, Options{}},
		{"recorded on two branches", func(_ *config.Config, st *state.State, _ *fakeReader) {
			st.Computes["shop.main.reports"].BranchID = "br-dev"
		}, Options{}},
		{"two blocks recorded on one branch (state mv)", func(cfg *config.Config, st *state.State, _ *fakeReader) {
			cfg.Projects[0].Branches = append(cfg.Projects[0].Branches, difftest.BranchNamed("dev", "dev", difftest.Compute("other")))
			c := *st.Computes["shop.main.reports"]
			st.Computes["shop.dev.other"] = &c
		}, Options{}},
		{"another block pins the recorded branch", func(cfg *config.Config, _ *state.State, _ *fakeReader) {
			cfg.Projects[0].Branches = append(cfg.Projects[0].Branches, difftest.BranchID("pinned", "br-main"))
		}, Options{}},
		{"the project block has another id now", func(_ *config.Config, st *state.State, _ *fakeReader) {
			for _, c := range st.Computes {
				c.ProjectID = "old-project-11111111"
			}
		}, Options{}},
		{"recorded before the state kept the name, or found by id then", func(_ *config.Config, st *state.State, _ *fakeReader) {
			for _, c := range st.Computes {
				c.BranchName = ""
			}
		}, Options{}},
		{"recorded under two names", func(_ *config.Config, st *state.State, _ *fakeReader) {
			st.Computes["shop.main.reports"].BranchName = "production"
		}, Options{}},
		{"only a deposed entry records the block", func(_ *config.Config, st *state.State, _ *fakeReader) {
			for addr, c := range st.Computes {
				delete(st.Computes, addr)
				st.Computes[state.DeposedAddress(addr, c.EndpointID)] = c
			}
		}, Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, st, f := recordedShop("main")
			tc.edit(cfg, st, f)
			live, calls := fetchCalls(t, f, cfg, st, tc.opts)
			if calls != "map[branches "+difftest.Proj+":1 endpoints "+difftest.Proj+":1]" {
				t.Errorf("calls %s: want the endpoints and the branches", calls)
			}
			if live.Projects[difftest.Proj].Branches == nil {
				t.Errorf("branches not kept")
			}
		})
	}
}

// A block whose name changed since its computes were recorded (its name or
// id attribute edited or removed, so that its label means another branch) is
// found by its name again. Here the name now says "dev": the computes move
// there.
func TestABlockWhoseNameChangedIsLookedUp(t *testing.T) {
	cfg, st, f := recordedShop("dev")
	live, calls := fetchCalls(t, f, cfg, st, Options{})
	if calls != "map[branches "+difftest.Proj+":1 endpoints "+difftest.Proj+":1]" {
		t.Errorf("calls %s: want the endpoints and the branches", calls)
	}
	p := plantest.MustBuild(t, cfg, st, live)
	if ch := plantest.ChangeAt(t, p, "shop.main.primary"); ch.Action != diff.Update || ch.BranchID != "br-dev" {
		t.Errorf("shop.main.primary: %v to %s, want an update that moves it to br-dev", ch.Action, ch.BranchID)
	}
}

// A block named otherwise than its label needs no list either, once its
// computes are recorded under that name.
func TestABlockNamedOtherThanItsLabelIsKnownFromTheState(t *testing.T) {
	cfg, st, f := recordedShop("production")
	for _, c := range st.Computes {
		c.BranchName = "production"
	}
	f.branches[difftest.Proj] = []api.Branch{{ID: "br-main", Name: "production"}}
	live, calls := fetchCalls(t, f, cfg, st, Options{})
	if calls != "map[endpoints "+difftest.Proj+":1]" || live.Projects[difftest.Proj].Known["main"] != "br-main" {
		t.Errorf("calls %s, known %v: want one list of endpoints, main known as br-main", calls, live.Projects[difftest.Proj].Known)
	}
	if p := plantest.MustBuild(t, cfg, st, live); p.HasChanges() {
		t.Errorf("plan: %v", plantest.StepLines(p))
	}
}

// A branch renamed outside neonform keeps its id: the computes stay where
// they are, until the branches are listed again (-refresh-branches): then
// the block means the branch that has its name now.
func TestARenamedBranchKeepsItsComputesUntilRefreshed(t *testing.T) {
	cfg, st, f := recordedShop("main")
	f.branches[difftest.Proj] = []api.Branch{{ID: "br-main", Name: "legacy"}, {ID: "br-dev", Name: "main"}}
	live, _ := fetchCalls(t, f, cfg, st, Options{})
	if p := plantest.MustBuild(t, cfg, st, live); p.HasChanges() {
		t.Errorf("a rename outside neonform changed the plan: %v", p.Changes)
	}
	live, _ = fetchCalls(t, f, cfg, st, Options{RefreshBranches: true})
	if ch := plantest.ChangeAt(t, plantest.MustBuild(t, cfg, st, live), "shop.main.primary"); ch.BranchID != "br-dev" {
		t.Errorf("refreshed: shop.main.primary goes to %s, want br-dev (the branch named main now)", ch.BranchID)
	}
}

// Progress is told of every project read, once.
func TestFetchTellsItsProgress(t *testing.T) {
	var projects []*config.Project
	for i := range 12 {
		projects = append(projects, difftest.Project(fmt.Sprintf("p%d", i), fmt.Sprintf("proj-%02d", i), difftest.BranchID("main", "br-x")))
	}
	var calls, last atomic.Int32
	_, diags := Live(context.Background(), &fakeReader{}, difftest.CfgOf(projects...), nil, Options{Parallelism: 3, Progress: func(done, total int) {
		calls.Add(1)
		if total != 12 {
			t.Errorf("total %d, want 12", total)
		}
		if done == 12 {
			last.Add(1)
		}
	}})
	if diags.HasErrors() || calls.Load() != 12 || last.Load() != 1 {
		t.Errorf("%d progress calls, %d of them at 12/12: want 12 and 1 (%v)", calls.Load(), last.Load(), diags)
	}
}
