package diff

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// A compute changed outside neonform since the last apply is drift, reported
// apart from the change that brings it back: drift compares state (what was
// applied) with live, the change compares live with the configuration.
func TestDriftIsReportedApartFromTheChange(t *testing.T) {
	applied := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.25, 2), difftest.EpSuspend(300))
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.25, 4), difftest.EpSuspend(900), difftest.Active)
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.CU(0.25, 2), difftest.SuspendAfter(300)))))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": applied}), liveOf(liveProject(difftest.Proj, live)))

	wantDrift := []Drift{{Address: "shop.main.primary", ProjectID: difftest.Proj, EndpointID: "ep-x", Attributes: []Attribute{
		{Name: "max_cu", Before: 2.0, After: 4.0, Effect: None},
		{Name: "suspend_timeout", Before: 300.0, After: 900.0, Effect: None},
	}}}
	if !cmp.Equal(p.Drift, wantDrift) {
		t.Errorf("drift:\n%s", cmp.Diff(wantDrift, p.Drift))
	}
	ch := changeAt(t, p, "shop.main.primary")
	wantAttrs := []Attribute{
		{Name: "max_cu", Before: 4.0, After: 2.0, Effect: Restart},
		{Name: "suspend_timeout", Before: 900.0, After: 300.0, Effect: None},
	}
	if !cmp.Equal(ch.Attributes, wantAttrs) {
		t.Errorf("reconciling change:\n%s", cmp.Diff(wantAttrs, ch.Attributes))
	}
	if ch.Disruption != Restart || !ch.Active {
		t.Errorf("disruption %s, active %v; want a restart of an active compute", ch.Disruption, ch.Active)
	}
}

// Drift in a value that comes from a sensitive variable is hidden like the
// change's: the plan keeps which values are sensitive after it lets the
// configuration go, before the drift is derived.
func TestDriftOfSensitiveValuesIsMarked(t *testing.T) {
	applied := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.25, 2), difftest.EpPG("work_mem", "64MB"))
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.25, 4), difftest.EpPG("work_mem", "128MB"))
	c := difftest.Compute("primary", difftest.CU(0.25, 2), difftest.PG("work_mem", "64MB"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": applied}), liveOf(liveProject(difftest.Proj, live)))

	if len(p.Drift) != 1 || len(p.Drift[0].Attributes) != 2 {
		t.Fatalf("drift: %+v", p.Drift)
	}
	for _, a := range p.Drift[0].Attributes {
		if want := a.Name == "pg_settings.work_mem"; a.Sensitive != want {
			t.Errorf("drift of %s: sensitive %v, want %v", a.Name, a.Sensitive, want)
		}
	}
}

// Live equal to what state says was applied is no drift, even when the
// configuration changed since (that is a change, not drift).
func TestNoDriftWhenOnlyTheConfigChanged(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.CU(1, 2)))))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": live}), liveOf(liveProject(difftest.Proj, live)))
	if len(p.Drift) != 0 {
		t.Errorf("drift = %+v, want none", p.Drift)
	}
	if ch := changeAt(t, p, "shop.main.primary"); ch.Action != Update {
		t.Errorf("action = %s, want update", ch.Action)
	}
}

// Drift with the configuration already matching live: no API call, but the
// state learns what is live (a state-only step), so the drift is not
// reported again.
func TestDriftThatMatchesTheConfigOnlyUpdatesState(t *testing.T) {
	applied := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(1, 2))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.CU(1, 2)))))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": applied}), liveOf(liveProject(difftest.Proj, live)))
	if len(p.Drift) != 1 {
		t.Fatalf("drift = %+v, want one", p.Drift)
	}
	if got, want := stepLines(p), []string{"STATE shop.main.primary"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	if rec := p.Steps[0].Record; rec == nil || rec.Applied.MaxCU != 2 {
		t.Errorf("record = %+v, want max_cu 2 recorded", rec)
	}
}

// Live endpoints nothing claims are listed as unmanaged and left alone, with
// the branch's label when a branch block names the branch.
func TestUnmanagedAreListed(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"))))
	live := liveOf(liveProject(difftest.Proj,
		difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-adhoc", difftest.BrMain, difftest.RO, difftest.EpName("adhoc")),
		difftest.Endpoint("ep-dev", difftest.BrDev, difftest.RW),
	))
	p := mustBuild(t, cfg, nil, live)
	want := []Unmanaged{
		{ProjectID: difftest.Proj, ProjectLabel: "shop", BranchID: difftest.BrMain, BranchLabel: "main", EndpointID: "ep-adhoc", Name: "adhoc", Type: difftest.RO},
		{ProjectID: difftest.Proj, ProjectLabel: "shop", BranchID: difftest.BrDev, EndpointID: "ep-dev", Type: difftest.RW},
	}
	if !cmp.Equal(p.Unmanaged, want) {
		t.Errorf("unmanaged:\n%s", cmp.Diff(want, p.Unmanaged))
	}
	for _, s := range p.Steps {
		if s.Kind == StepDelete {
			t.Errorf("an unmanaged endpoint is deleted: %+v", s)
		}
	}
}

// On an exclusive branch, live computes no block declares are deleted; the
// other branches' unmanaged endpoints are still left alone.
func TestExclusiveBranchDeletesUndeclared(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj,
		difftest.Exclusive(difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"))),
		difftest.BranchID("dev", difftest.BrDev)))
	live := liveOf(liveProject(difftest.Proj,
		difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-adhoc", difftest.BrMain, difftest.RO, difftest.EpName("adhoc"), difftest.Active),
		difftest.Endpoint("ep-dev-extra", difftest.BrDev, difftest.RO),
	))
	p := mustBuild(t, cfg, nil, live)
	ch := changeAt(t, p, "shop.main[ep-adhoc]")
	if ch.Action != Delete || ch.EndpointID != "ep-adhoc" || !ch.Active {
		t.Fatalf("change = %+v, want the delete of the active ep-adhoc", ch)
	}
	if want := (Reason{Kind: ReasonExclusiveBranch, EndpointID: "ep-adhoc", Type: api.EndpointTypeReadOnly, Name: "adhoc",
		Branch: &Branch{ID: difftest.BrMain, Label: "shop.main"}}); len(ch.Reasons) != 1 || !cmp.Equal(ch.Reasons[0], want) {
		t.Errorf("reasons = %+v, want %+v", ch.Reasons, want)
	}
	if len(p.Unmanaged) != 1 || p.Unmanaged[0].EndpointID != "ep-dev-extra" {
		t.Errorf("unmanaged = %+v, want only ep-dev-extra", p.Unmanaged)
	}
	var del *Step
	for i := range p.Steps {
		if p.Steps[i].Kind == StepDelete {
			del = &p.Steps[i]
		}
	}
	if del == nil || del.Path != "/projects/"+difftest.Proj+"/endpoints/ep-adhoc" || del.Forget != "" {
		t.Errorf("delete step = %+v, want DELETE ep-adhoc with nothing to forget", del)
	}
}

// A moved block within a branch is a rename: the same endpoint, recorded at
// its new address, with no API call.
func TestMovedRenameIsStateOnly(t *testing.T) {
	live := difftest.Endpoint("ep-r", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("analytics", difftest.ReadOnly, difftest.Named("reports"))))),
		"shop.main.reports", "shop.main.analytics")
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": live}), liveOf(liveProject(difftest.Proj, live)))
	ch := changeAt(t, p, "shop.main.analytics")
	if ch.Action != NoOp || ch.EndpointID != "ep-r" || ch.MovedFrom != "shop.main.reports" {
		t.Fatalf("change = %+v, want a no-op of ep-r moved from shop.main.reports", ch)
	}
	if _, ok := changeOf(p, "shop.main.reports"); ok {
		t.Errorf("the old address is planned too: %v", addresses(p))
	}
	if len(p.Steps) != 1 || p.Steps[0].Kind != StepState || p.Steps[0].MovedFrom != "shop.main.reports" || p.Steps[0].Record.EndpointID != "ep-r" {
		t.Fatalf("steps = %+v, want one state-only rename", p.Steps)
	}
}

// A moved block to another branch moves the endpoint there with PATCH
// branch_id: it keeps its id and host, and is suspended by the move.
func TestMovedToAnotherBranchPatchesBranchID(t *testing.T) {
	live := difftest.Endpoint("ep-r", difftest.BrDev, difftest.RO, difftest.EpName("reports"), difftest.Active)
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj,
		difftest.BranchID("main", difftest.BrMain, difftest.Compute("reports", difftest.ReadOnly)),
		difftest.BranchID("dev", difftest.BrDev))),
		"shop.dev.reports", "shop.main.reports")
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.dev.reports": live}), liveOf(liveProject(difftest.Proj, live)))
	ch := changeAt(t, p, "shop.main.reports")
	if ch.Action != Update || ch.Disruption != Suspend || ch.MovedFrom != "shop.dev.reports" {
		t.Fatalf("change = %+v, want an update that suspends, moved from shop.dev.reports", ch)
	}
	if want := (Attribute{Name: "branch", Before: difftest.BrDev, After: difftest.BrMain, Effect: Suspend}); len(ch.Attributes) != 1 || !reflect.DeepEqual(ch.Attributes[0], want) {
		t.Errorf("attributes = %+v, want %+v", ch.Attributes, want)
	}
	if want := (Reason{Kind: ReasonBranchMove, Attribute: "branch", Branch: &Branch{ID: difftest.BrDev, Label: "shop.dev"},
		ToBranch: &Branch{ID: difftest.BrMain, Label: "shop.main"}}); !hasReason(ch, want) {
		t.Errorf("reasons = %+v, want %+v", ch.Reasons, want)
	}
	s := p.Steps[0]
	if len(p.Steps) != 1 || s.Method != "PATCH" || string(s.Body) != `{"endpoint":{"branch_id":"`+difftest.BrMain+`"}}` || s.MovedFrom != "shop.dev.reports" {
		t.Errorf("steps = %+v, want one PATCH of branch_id that drops the old address", p.Steps)
	}
}

// Moves chain: a -> b and b -> c take the entry at a to c.
func TestMovedChain(t *testing.T) {
	live := difftest.Endpoint("ep-r", difftest.BrMain, difftest.RO, difftest.EpName("r"))
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("c", difftest.ReadOnly, difftest.Named("r"))))),
		"shop.main.b", "shop.main.c", "shop.main.a", "shop.main.b")
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.a": live}), liveOf(liveProject(difftest.Proj, live)))
	if ch := changeAt(t, p, "shop.main.c"); ch.EndpointID != "ep-r" || ch.MovedFrom != "shop.main.a" {
		t.Errorf("change = %+v, want ep-r moved from shop.main.a", ch)
	}
}

// A chain of moved blocks takes the entry to its end whatever the order of
// the blocks, and whatever the order their addresses sort in.
func TestMovedChainInAnyOrder(t *testing.T) {
	chains := [][]string{
		{"a", "b", "c"},
		{"c", "b", "a"},
		{"d", "b", "c", "a"},
		{"b", "d", "a", "c"},
	}
	for _, chain := range chains {
		var pairs [][2]string
		for i := 0; i+1 < len(chain); i++ {
			pairs = append(pairs, [2]string{"shop.main." + chain[i], "shop.main." + chain[i+1]})
		}
		for _, order := range permutations(len(pairs)) {
			var flat []string
			for _, i := range order {
				flat = append(flat, pairs[i][0], pairs[i][1])
			}
			start, end := "shop.main."+chain[0], "shop.main."+chain[len(chain)-1]
			live := difftest.Endpoint("ep-r", difftest.BrMain, difftest.RO, difftest.EpName("r"))
			cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute(chain[len(chain)-1], difftest.ReadOnly, difftest.Named("r"))))), flat...)
			p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{start: live}), liveOf(liveProject(difftest.Proj, live)))
			ch := changeAt(t, p, end)
			if ch.EndpointID != "ep-r" || ch.MovedFrom != start || ch.Action != NoOp || len(p.Changes) != 1 || len(p.Warnings) != 0 {
				t.Errorf("chain %v, blocks in order %v: changes %v (%s moved from %q), warnings %q; want ep-r renamed from %s to %s",
					chain, order, addresses(p), ch.EndpointID, ch.MovedFrom, p.Warnings, start, end)
			}
			if len(p.Steps) != 1 || p.Steps[0].MovedFrom != start || p.Steps[0].Address != end {
				t.Errorf("chain %v, order %v: steps %v", chain, order, stepLines(p))
			}
		}
	}
}

// permutations lists every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// A moved block whose both ends are in state is ignored, with a warning that
// says what to do.
func TestMovedBothInStateWarns(t *testing.T) {
	a := difftest.Endpoint("ep-a", difftest.BrMain, difftest.RO, difftest.EpName("a"))
	b := difftest.Endpoint("ep-b", difftest.BrMain, difftest.RO, difftest.EpName("b"))
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("b", difftest.ReadOnly)))), "shop.main.a", "shop.main.b")
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.a": a, "shop.main.b": b}), liveOf(liveProject(difftest.Proj, a, b)))
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "both addresses are in the state") {
		t.Errorf("warnings = %q", p.Warnings)
	}
	if ch := changeAt(t, p, "shop.main.a"); ch.Action != Delete {
		t.Errorf("shop.main.a: %s, want delete (no longer configured)", ch.Action)
	}
}
