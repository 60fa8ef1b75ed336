package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
)

func withRemoval(cfg *config.Config, from string, destroy bool) *config.Config {
	cfg.Removals = append(cfg.Removals, &config.Removal{From: from, Destroy: destroy, DeclRange: difftest.At(), FromRange: difftest.At()})
	return cfg
}

// A removed block with destroy = false forgets the compute in a state-only
// step, even one the state protects with prevent_destroy (nothing is
// deleted), and the plan file carries it: apply derives the step from
// Plan.Forget, and refuses a plan whose list was edited.
func TestRemovedWithoutDestroyForgets(t *testing.T) {
	primary := difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	reports := difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": primary, "shop.main.reports": reports})
	st.Computes["shop.main.reports"].PreventDestroy = true
	cfg := withRemoval(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary")))), "shop.main.reports", false)
	live := liveOf(liveProject(difftest.Proj, primary, reports))
	p := mustBuild(t, cfg, st, live)
	if !slices.Equal(p.Forget, []string{"shop.main.reports"}) {
		t.Errorf("forget = %v, want [shop.main.reports]", p.Forget)
	}
	if slices.Contains(addresses(p), "shop.main.reports") {
		t.Errorf("the plan has a change for shop.main.reports, want none: %v", addresses(p))
	}
	var forget *Step
	for i := range p.Steps {
		if p.Steps[i].Address == "shop.main.reports" {
			forget = &p.Steps[i]
		}
	}
	if forget == nil || forget.Kind != StepState || forget.Forget != "shop.main.reports" || forget.Record != nil ||
		!strings.Contains(forget.Note, "forget: the endpoint ep-reports stays, unmanaged") {
		t.Fatalf("step = %+v, want a state-only step forgetting shop.main.reports", forget)
	}
	if p.Summary.StateOnly != 1 || p.Summary.Delete != 0 {
		t.Errorf("summary = %+v, want 1 state-only step and no delete", p.Summary)
	}

	for _, edit := range [][]string{nil, {"shop.main.reports", "shop.main.primary"}, {"shop.main.gone"}} {
		q := jsonTrip(t, p)
		q.Forget = edit
		if _, err := Verify(q, st); err == nil {
			t.Errorf("Verify accepts the plan with forget = %v", edit)
		}
	}
}

// A removed block with destroy = true deletes the endpoint, and says so; a
// replica created beside it is no rename of it, since the delete is asked.
func TestRemovedWithDestroyDeletes(t *testing.T) {
	primary := difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	reports := difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": primary, "shop.main.reports": reports})
	cfg := withRemoval(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain,
		difftest.Compute("primary"), difftest.Compute("analytics", difftest.ReadOnly)))), "shop.main.reports", true)
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, primary, reports)))
	ch := changeAt(t, p, "shop.main.reports")
	if ch.Action != Delete || len(p.Forget) != 0 || !slices.Equal(ch.Reasons, []Reason{{Kind: ReasonRemovedBlock, EndpointID: "ep-reports"}}) {
		t.Errorf("change = %+v, forget = %v; want a delete that names the removed block", ch, p.Forget)
	}
	if ch := changeAt(t, p, "shop.main.analytics"); slices.ContainsFunc(ch.Reasons, func(r Reason) bool { return r.Kind == ReasonMayBeRenamed }) {
		t.Errorf("reasons = %+v, want no rename of a compute a removed block deletes", ch.Reasons)
	}
}

// Forgetting a compute on an exclusive branch is refused: the next plan
// would delete its endpoint as one no block declares.
func TestRemovedOnExclusiveBranchIsRefused(t *testing.T) {
	reports := difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": reports})
	cfg := withRemoval(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.Exclusive(difftest.BranchID("main", difftest.BrMain)))), "shop.main.reports", false)
	d := buildErr(t, cfg, st, liveOf(liveProject(difftest.Proj, reports)))
	if d.Summary != "Forgotten compute on an exclusive branch" {
		t.Errorf("got %s, want the exclusive branch refused", d.String())
	}
}
