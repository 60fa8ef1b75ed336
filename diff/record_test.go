package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// Applying every step's UpdateState to the state the plan was made from
// gives the state a later plan finds nothing to do with.
func TestUpdateStateLeadsToNoChanges(t *testing.T) {
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RW, difftest.EpName("c")) // read_write, configured read_only: replaced
	reports := difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain,
		difftest.Compute("c", difftest.ReadOnly), difftest.Compute("analytics", difftest.ReadOnly, difftest.Named("reports"), difftest.CU(1, 2)), difftest.Compute("new", difftest.ReadOnly)))),
		"shop.main.reports", "shop.main.analytics")
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": old, "shop.main.reports": reports})
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, old, reports)))

	// Carry the plan out by hand, as apply would, keeping the live endpoints in step.
	next := st.Clone()
	live := map[string]api.Endpoint{"ep-old": old, "ep-reports": reports}
	for i, s := range p.Steps {
		created := ""
		switch s.Kind {
		case StepCreate:
			created = "ep-created-" + s.Address
			r := s.Record
			live[created] = difftest.Endpoint(created, r.BranchID, r.Type, difftest.EpName(r.Applied.Name), difftest.EpCU(r.Applied.MinCU, r.Applied.MaxCU))
		case StepDelete:
			delete(live, s.EndpointID)
		case StepUpdate:
			e := live[s.EndpointID]
			e.AutoscalingLimitMinCU, e.AutoscalingLimitMaxCU = s.Record.Applied.MinCU, s.Record.Applied.MaxCU
			live[s.EndpointID] = e
		}
		if err := p.Steps[i].UpdateState(next, created); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"shop.main.c": "ep-created-shop.main.c", "shop.main.analytics": "ep-reports", "shop.main.new": "ep-created-shop.main.new"}
	got := map[string]string{}
	for addr, c := range next.Computes {
		got[addr] = c.EndpointID
	}
	if !cmp.Equal(got, want) {
		t.Fatalf("state after the steps:\n%s", cmp.Diff(want, got))
	}
	var eps []api.Endpoint
	for _, e := range live {
		eps = append(eps, e)
	}
	again := mustBuild(t, cfg, next, liveOf(liveProject(difftest.Proj, eps...)))
	if again.HasChanges() || len(again.Drift) != 0 {
		t.Errorf("a second plan still has steps %v, drift %+v", stepLines(again), again.Drift)
	}
}

// Forget drops an address only while it still points at the step's
// endpoint: a replacement's create has already pointed it at the new one.
func TestUpdateStateForgetKeepsANewerEntry(t *testing.T) {
	st := &state.State{Lineage: "l", Computes: map[string]*state.Compute{"shop.main.c": {EndpointID: "ep-new"}}}
	del := Step{Kind: StepDelete, Address: "shop.main.c", EndpointID: "ep-old", Forget: "shop.main.c"}
	if err := del.UpdateState(st, ""); err != nil {
		t.Fatal(err)
	}
	if st.Computes["shop.main.c"] == nil {
		t.Fatalf("the delete of ep-old forgot the entry that now points at ep-new")
	}
	st.Computes["shop.main.c"].EndpointID = "ep-old"
	if err := del.UpdateState(st, ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Computes["shop.main.c"]; ok {
		t.Errorf("the delete did not forget the entry of ep-old")
	}
	create := Step{ID: 3, Kind: StepCreate, Address: "shop.main.x", Record: &state.Compute{}}
	if err := create.UpdateState(st, ""); err == nil {
		t.Errorf("a create without the new endpoint's id was recorded")
	}
}
