package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// A rule's computes go on every live branch it matches and no other: not on
// an excluded one, not on one a branch block names (by name or by id), each
// at its instance's address, adopting the branch's read_write compute.
func TestRuleInstances(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(
		difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main", difftest.Compute("primary")), difftest.BranchID("pinned", "br-pinned", difftest.Compute("primary"))),
		difftest.Rule("previews", []string{"preview/*", "*"}, []string{"preview/keep-*"}, difftest.Compute("primary", difftest.CU(0.25, 1)))))
	live := liveOf(withBranches(liveProject(difftest.Proj,
		difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-keep", "br-keep", difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-pinned", "br-pinned", difftest.RW, difftest.EpName("primary")),
	), "main", difftest.BrMain, "preview/pr-1", "br-pr1", "preview/pr-2", "br-pr2", "preview/keep-me", "br-keep", "pinned-name", "br-pinned", "preview/a/b", "br-deep"))
	p := mustBuild(t, cfg, nil, live)
	want := []string{
		"shop.main.primary:no-op", "shop.pinned.primary:no-op", difftest.PreviewPR1 + ":update",
		`shop.previews["preview/pr-2"].primary:create`,
	}
	got := addresses(p)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v (nothing on main, pinned, the excluded branch or preview/a/b, which * does not cross)", got, want)
	}
	if c := changeAt(t, p, difftest.PreviewPR1); !c.Adopt || c.EndpointID != "ep-pr1" || c.BranchName != "preview/pr-1" {
		t.Errorf("the instance on preview/pr-1 adopts %q (adopt %v), recording branch %q; want ep-pr1, preview/pr-1", c.EndpointID, c.Adopt, c.BranchName)
	}
	// The configuration itself is left as it was: the next plan matches again.
	if len(cfg.Projects[0].Branches) != 2 {
		t.Errorf("Build changed the configuration: %d branches", len(cfg.Projects[0].Branches))
	}
}

// A branch two rules match is an error naming both rules and the branch.
func TestRuleTwoRulesOneBranch(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj),
		difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary")),
		difftest.Rule("prs", []string{"*/pr-*"}, nil, difftest.Compute("primary"))))
	live := liveOf(withBranches(liveProject(difftest.Proj), "preview/pr-1", "br-pr1"))
	d := buildErr(t, cfg, nil, live)
	for _, want := range []string{`Branch "preview/pr-1" (br-pr1)`, `"previews" (main.hcl:`, `and "prs" (main.hcl:`} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("the error does not say %q: %s: %s", want, d.Summary, d.Detail)
		}
	}
	if d.Range == nil || *d.Range != cfg.Projects[0].Rules[1].DeclRange {
		t.Errorf("the error points at %v, want the second rule", d.Range)
	}
}

// exclusive = true on a rule deletes what its instances do not declare on
// the matched branches, and only there.
func TestRuleExclusive(t *testing.T) {
	r := difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary"))
	r.Exclusive = true
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj), r))
	live := liveOf(withBranches(liveProject(difftest.Proj,
		difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-extra", "br-pr1", difftest.RO, difftest.EpName("extra")),
		difftest.Endpoint("ep-other", difftest.BrMain, difftest.RO, difftest.EpName("extra")),
	), "main", difftest.BrMain, "preview/pr-1", "br-pr1"))
	p := mustBuild(t, cfg, nil, live)
	if c := changeAt(t, p, `shop.previews["preview/pr-1"][ep-extra]`); c.Action != Delete {
		t.Errorf("the undeclared replica on a matched branch: %v, want delete", c.Action)
	}
	if len(p.Unmanaged) != 1 || p.Unmanaged[0].EndpointID != "ep-other" {
		t.Errorf("unmanaged %+v, want ep-other alone", p.Unmanaged)
	}
}

// A matched branch deleted outside neonform takes its computes with it: the
// plan forgets their entries, saying so, and calls nothing.
func TestRuleBranchDeleted(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj), difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary"))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{difftest.PreviewPR1: difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary"))})
	st.Computes[difftest.PreviewPR1].BranchName = "preview/pr-1"
	live := liveOf(withBranches(liveProject(difftest.Proj, difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW)), "main", difftest.BrMain))
	p := mustBuild(t, cfg, st, live)
	if len(p.Changes) != 0 || p.APICalls() != 0 || len(p.Steps) != 1 {
		t.Fatalf("changes %v, %d calls, steps %v; want one state-only step", addresses(p), p.APICalls(), stepLines(p))
	}
	s := p.Steps[0]
	if s.Kind != StepState || s.Forget != difftest.PreviewPR1 || !strings.Contains(s.Note, `branch "preview/pr-1" (br-pr1) has no endpoint left`) {
		t.Errorf("step %+v, want a forget of %s saying its branch has no endpoint left", s, difftest.PreviewPR1)
	}
	applied := st.Clone()
	for _, s := range p.Steps {
		if err := s.UpdateState(applied, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, still := applied.Computes[difftest.PreviewPR1]; still {
		t.Errorf("the entry is still in the state after the step")
	}
}
