package fetch

import (
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// Live lists the branches of a project with a rule even when the state
// knows every branch block's branch: one list of branches, one of endpoints.
func TestFetchListsBranchesForRule(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main", difftest.Compute("primary"))),
		difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary"))))
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW)})
	st.Computes["shop.main.primary"].BranchName = "main"
	r := &fakeReader{endpoints: map[string][]api.Endpoint{difftest.Proj: {difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW)}},
		branches: map[string][]api.Branch{difftest.Proj: {{ID: difftest.BrMain, Name: "main"}}}}
	live, diags := Live(t.Context(), r, cfg, st, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if r.calls["endpoints "+difftest.Proj] != 1 || r.calls["branches "+difftest.Proj] != 1 || live.Projects[difftest.Proj].Branches == nil {
		t.Errorf("calls %v, want one list of endpoints and one of branches", r.calls)
	}
}
