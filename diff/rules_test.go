package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
)

const previewPR1 = `shop.previews["preview/pr-1"].primary`

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
		"shop.main.primary:no-op", "shop.pinned.primary:no-op", previewPR1 + ":update",
		`shop.previews["preview/pr-2"].primary:create`,
	}
	got := addresses(p)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v (nothing on main, pinned, the excluded branch or preview/a/b, which * does not cross)", got, want)
	}
	if c := changeAt(t, p, previewPR1); !c.Adopt || c.EndpointID != "ep-pr1" || c.BranchName != "preview/pr-1" {
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
	if d.Subject == nil || *d.Subject != cfg.Projects[0].Rules[1].DeclRange {
		t.Errorf("the error points at %v, want the second rule", d.Subject)
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
	st := stateWith(difftest.Proj, map[string]api.Endpoint{previewPR1: difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary"))})
	st.Computes[previewPR1].BranchName = "preview/pr-1"
	live := liveOf(withBranches(liveProject(difftest.Proj, difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW)), "main", difftest.BrMain))
	p := mustBuild(t, cfg, st, live)
	if len(p.Changes) != 0 || p.APICalls() != 0 || len(p.Steps) != 1 {
		t.Fatalf("changes %v, %d calls, steps %v; want one state-only step", addresses(p), p.APICalls(), stepLines(p))
	}
	s := p.Steps[0]
	if s.Kind != StepState || s.Forget != previewPR1 || !strings.Contains(s.Note, `branch "preview/pr-1" (br-pr1) has no endpoint left`) {
		t.Errorf("step %+v, want a forget of %s saying its branch has no endpoint left", s, previewPR1)
	}
	applied := st.Clone()
	for _, s := range p.Steps {
		if err := s.UpdateState(applied, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, still := applied.Computes[previewPR1]; still {
		t.Errorf("the entry is still in the state after the step")
	}
}

// The views summarise a fleet in one line and say a change that several
// instances share once, naming every instance; the plan file lists each.
func TestRuleFleetViews(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj), difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary", difftest.CU(0.25, 1)))))
	live := liveOf(withBranches(liveProject(difftest.Proj,
		difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary"), difftest.Active),
		difftest.Endpoint("ep-pr2", "br-pr2", difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-pr3", "br-pr3", difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.25, 1)),
		difftest.Endpoint("ep-pr4", "br-pr4", difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.5, 1)),
	), "preview/pr-1", "br-pr1", "preview/pr-2", "br-pr2", "preview/pr-3", "br-pr3", "preview/pr-4", "br-pr4"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{})
	for i, ep := range live.Projects[difftest.Proj].Endpoints {
		addr := config.AddressOf("shop", config.InstanceLabel("previews", live.Projects[difftest.Proj].Branches[i].Name), "primary")
		st.Computes[addr] = ep.Values.Record(ep.ID, difftest.Proj, false)
		st.Computes[addr].BranchName = live.Projects[difftest.Proj].Branches[i].Name
	}
	p := mustBuild(t, cfg, st, live)
	if len(p.Changes) != 4 {
		t.Fatalf("the plan lists %v, want each of the 4 instances", addresses(p))
	}
	out := humanOf(t, p, HumanOptions{})
	for _, want := range []string{
		"   shop.previews[*].primary: 4 branches, 1 in place, 3 to update, 1 restart\n\n",
		// pr-1 and pr-2 change alike: both headlines, then the change once.
		`   ~ shop.previews["preview/pr-1"].primary  ep-pr1  update: RESTART, active now, drops connections` + "\n" +
			`   ~ shop.previews["preview/pr-2"].primary  ep-pr2  update: restart, idle now, no connections to drop` + "\n" +
			"      min_cu            1 -> 0.25  restart\n",
		// pr-4 changes from another size: its own entry.
		`   ~ shop.previews["preview/pr-4"].primary  ep-pr4  update: restart, idle now, no connections to drop` + "\n" +
			"      min_cu            0.5 -> 0.25  restart\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want\n%s\nin\n%s", want, out)
		}
	}
	if n := strings.Count(out, "min_cu            1 -> 0.25"); n != 1 {
		t.Errorf("the shared change is said %d times, want once:\n%s", n, out)
	}
	if verbose := humanOf(t, p, HumanOptions{Verbose: true}); strings.Count(verbose, "min_cu            1 -> 0.25") != 2 {
		t.Errorf("-verbose says each instance's change in full:\n%s", verbose)
	}
	md := markdownOf(t, p, 0)
	if !strings.Contains(md, "- `shop.previews[*].primary`: 4 branches, 1 in place, 3 to update, 1 restart\n") ||
		!strings.Contains(md, "`"+previewPR1+"`") {
		t.Errorf("the Markdown view has no fleet line or does not list the instances:\n%s", md)
	}
}

// New instances that create alike are said once: each is on a branch of
// its own, which does not make their changes different.
func TestRuleFleetCreates(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj), difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary", difftest.CU(0.25, 1)))))
	live := liveOf(withBranches(liveProject(difftest.Proj), "preview/pr-1", "br-pr1", "preview/pr-2", "br-pr2"))
	p := mustBuild(t, cfg, nil, live)
	out := humanOf(t, p, HumanOptions{})
	want := "   shop.previews[*].primary: 2 branches, 2 to create\n\n" +
		`   + shop.previews["preview/pr-1"].primary  (new read_write compute)  create` + "\n" +
		`   + shop.previews["preview/pr-2"].primary  (new read_write compute)  create` + "\n" +
		"      size: 0.25-1 CU autoscaling"
	if !strings.Contains(out, want) || strings.Count(out, "size: ") != 1 {
		t.Errorf("want\n%s\nonce in\n%s", want, out)
	}
	for _, c := range p.Changes {
		if c.Action != Create || c.BranchID == "" {
			t.Errorf("%s: %v on %q, want a create on its own branch", c.Address, c.Action, c.BranchID)
		}
	}
}
