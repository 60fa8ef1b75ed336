package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// A -target or -replace of a rule's instance must hit a compute of a live
// branch the rule takes, or a state entry: otherwise Build refuses, at the
// rule's block, saying why the rule has no such instance and what is near.
func TestRuleTargetMustHitSomething(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(
		difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main", difftest.Compute("primary"))),
		difftest.Rule("previews", []string{"preview/*"}, []string{"preview/keep-*"}, difftest.Compute("primary"))))
	live := liveOf(withBranches(liveProject(difftest.Proj,
		difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary")),
	), "main", difftest.BrMain, "preview/pr-1", "br-pr1", "preview/pr-2", "br-pr2", "preview/keep-me", "br-keep", "release", "br-release"))
	gone := state.New()
	gone.Computes[`shop.previews["preview/pr-7"].primary`] = &state.Compute{ProjectID: difftest.Proj, EndpointID: "ep-pr7", BranchID: "br-pr7", Type: api.EndpointTypeReadWrite}

	for _, tt := range []struct {
		scope Scope
		want  []string // in the detail as a view words it; none: Build plans
		near  []string // the near-miss, a fact of the diagnostic
	}{
		{Scope{Targets: []string{`shop.previews["preview/pr-6"]`}}, []string{
			`-target shop.previews["preview/pr-6"]: project shop has no branch named "preview/pr-6", and a branches block has an instance only for a live branch it matches, so nothing would be planned for it. ` +
				`Did you mean shop.previews["preview/pr-1"], shop.previews["preview/pr-2"] or shop.previews["preview/pr-7"]? Check the branch's name`},
			[]string{`shop.previews["preview/pr-1"]`, `shop.previews["preview/pr-2"]`, `shop.previews["preview/pr-7"]`}}, // pr-7: the state's
		{Scope{Targets: []string{`shop.previews["preview/keep-me"]`}}, []string{
			`the branches block "previews" does not match branch "preview/keep-me" (match "preview/*", exclude "preview/keep-*")`}, nil},
		{Scope{Targets: []string{`shop.previews["main"].primary`}}, []string{
			`branch "main" is declared by a branch block of its own`, `Name that block instead: -target shop.main.primary.`}, nil},
		{Scope{Replace: []string{`shop.previews["preview/pr-7"].primary`}}, []string{
			`-replace shop.previews["preview/pr-7"].primary: project shop has no branch named "preview/pr-7"`},
			[]string{`shop.previews["preview/pr-7"].primary`}}, // the state's entry, which -replace cannot take
		{Scope{Targets: []string{`shop.previews["preview/pr-2"]`}}, nil, nil},
		{Scope{Targets: []string{`shop.previews["preview/pr-7"]`}}, nil, nil}, // the state's entry: a forget
		{Scope{Targets: []string{"shop.previews"}}, nil, nil},
		{Scope{Replace: []string{`shop.previews["preview/pr-1"].primary`}}, nil, nil},
	} {
		opts := testOpts
		opts.Scope = tt.scope
		p, diags := Build(cfg, gone, live, opts)
		if tt.want == nil {
			if diags.HasErrors() {
				t.Errorf("%+v: %s", tt.scope, diags.String())
			} else {
				checkVerifies(t, p, gone)
			}
			continue
		}
		if !diags.HasErrors() || len(diags) != 1 {
			t.Errorf("%+v: want one error, got %v", tt.scope, diags)
			continue
		}
		d := diags[0]
		if strings.Contains(d.Detail, "Did you mean") {
			t.Errorf("%+v: the plan model words its near-miss: %s", tt.scope, d.Detail)
		}
		if !slices.Equal(d.Near.Names, tt.near) || d.Near.Strings {
			t.Errorf("%+v: the near-miss is %+v, want the addresses %q", tt.scope, d.Near, tt.near)
		}
		d.Word() // as a view does
		for _, w := range tt.want {
			if !strings.Contains(d.Detail, w) {
				t.Errorf("%+v: the error does not say %q: %s: %s", tt.scope, w, d.Summary, d.Detail)
			}
		}
		if d.Range == nil || *d.Range != cfg.Projects[0].Rules[0].DeclRange {
			t.Errorf("%+v: the error points at %v, want the rule's block", tt.scope, d.Range)
		}
	}
}

// A rule that matches no branch, targeted whole, hits nothing unless the
// state records one of its computes.
func TestRuleTargetWithoutInstances(t *testing.T) {
	p := &config.Project{Label: "shop", ID: difftest.Proj, Rules: []*config.BranchRule{{Label: "hotfixes", Match: []string{"hotfix/*"}, Computes: []*config.Compute{difftest.Compute("primary")}}}}
	s := Scope{Targets: []string{"shop.hotfixes"}}
	d := CheckRuleTargets(p, []api.Branch{{ID: "br-main", Name: "main"}}, nil, s)
	if !d.HasErrors() || !strings.Contains(d[0].Detail, `the branches block "hotfixes" matches no branch of project shop now (match "hotfix/*")`) {
		t.Errorf("got %v", d)
	}
	st := state.New()
	st.Computes[`shop.hotfixes["hotfix/1"].primary`] = &state.Compute{ProjectID: difftest.Proj, EndpointID: "ep-1", BranchID: "br-1", Type: api.EndpointTypeReadWrite}
	if d := CheckRuleTargets(p, nil, st, s); d.HasErrors() {
		t.Errorf("a rule the state records is refused: %v", d)
	}
	if !RuleTargeted(p, s) || RuleTargeted(p, Scope{Targets: []string{"shop.main"}}) {
		t.Errorf("RuleTargeted does not tell a rule's address from a branch's")
	}
}
