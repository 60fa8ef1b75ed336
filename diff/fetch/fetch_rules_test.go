package fetch

import (
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
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
		t.Fatal(diags.String())
	}
	if r.calls["endpoints "+difftest.Proj] != 1 || r.calls["branches "+difftest.Proj] != 1 || live.Projects[difftest.Proj].Branches == nil {
		t.Errorf("calls %v, want one list of endpoints and one of branches", r.calls)
	}
}

// A -target of a rule's instance whose branch does not exist is refused with
// the branches alone listed: the endpoints are not read. One that exists is
// read as always.
func TestFetchRefusesRuleTargetBeforeEndpoints(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main", difftest.Compute("primary"))),
		difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary"))))
	for _, tt := range []struct {
		target    string
		endpoints int
	}{{`shop.previews["preview/pr-6"]`, 0}, {`shop.previews["preview/pr-1"]`, 1}} {
		r := &fakeReader{endpoints: map[string][]api.Endpoint{difftest.Proj: {difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW)}},
			branches: map[string][]api.Branch{difftest.Proj: {{ID: difftest.BrMain, Name: "main"}, {ID: "br-pr1", Name: "preview/pr-1"}}}}
		_, diags := Live(t.Context(), r, cfg, nil, Options{Scope: diff.Scope{Targets: []string{tt.target}}})
		if diags.HasErrors() != (tt.endpoints == 0) {
			t.Errorf("-target %s: errors %v", tt.target, diags)
		}
		if r.calls["endpoints "+difftest.Proj] != tt.endpoints || r.calls["branches "+difftest.Proj] != 1 {
			t.Errorf("-target %s: calls %v, want one list of branches and %d of endpoints", tt.target, r.calls, tt.endpoints)
		}
	}
}
