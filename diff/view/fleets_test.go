package view

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// The views summarise a fleet in one line and say a change that several
// instances share once, naming every instance; the plan file lists each.
func TestRuleFleetViews(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj), difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary", difftest.CU(0.25, 1)))))
	live := plantest.LiveOf(plantest.WithBranches(plantest.LiveProject(difftest.Proj,
		difftest.Endpoint("ep-pr1", "br-pr1", difftest.RW, difftest.EpName("primary"), difftest.Active),
		difftest.Endpoint("ep-pr2", "br-pr2", difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-pr3", "br-pr3", difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.25, 1)),
		difftest.Endpoint("ep-pr4", "br-pr4", difftest.RW, difftest.EpName("primary"), difftest.EpCU(0.5, 1)),
	), "preview/pr-1", "br-pr1", "preview/pr-2", "br-pr2", "preview/pr-3", "br-pr3", "preview/pr-4", "br-pr4"))
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{})
	for i, ep := range live.Projects[difftest.Proj].Endpoints {
		addr := config.AddressOf("shop", config.InstanceLabel("previews", live.Projects[difftest.Proj].Branches[i].Name), "primary")
		st.Computes[addr] = ep.Values.Record(ep.ID, difftest.Proj, false)
		st.Computes[addr].BranchName = live.Projects[difftest.Proj].Branches[i].Name
	}
	p := plantest.MustBuild(t, cfg, st, live)
	if len(p.Changes) != 4 {
		t.Fatalf("the plan lists %v, want each of the 4 instances", plantest.Addresses(p))
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
		!strings.Contains(md, "`"+difftest.PreviewPR1+"`") {
		t.Errorf("the Markdown view has no fleet line or does not list the instances:\n%s", md)
	}
}

// New instances that create alike are said once: each is on a branch of
// its own, which does not make their changes different.
func TestRuleFleetCreates(t *testing.T) {
	cfg := difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj), difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary", difftest.CU(0.25, 1)))))
	live := plantest.LiveOf(plantest.WithBranches(plantest.LiveProject(difftest.Proj), "preview/pr-1", "br-pr1", "preview/pr-2", "br-pr2"))
	p := plantest.MustBuild(t, cfg, nil, live)
	out := humanOf(t, p, HumanOptions{})
	want := "   shop.previews[*].primary: 2 branches, 2 to create\n\n" +
		`   + shop.previews["preview/pr-1"].primary  (new read_write compute)  create` + "\n" +
		`   + shop.previews["preview/pr-2"].primary  (new read_write compute)  create` + "\n" +
		"      size: 0.25-1 CU autoscaling"
	if !strings.Contains(out, want) || strings.Count(out, "size: ") != 1 {
		t.Errorf("want\n%s\nonce in\n%s", want, out)
	}
	for _, c := range p.Changes {
		if c.Action != diff.Create || c.BranchID == "" {
			t.Errorf("%s: %v on %q, want a create on its own branch", c.Address, c.Action, c.BranchID)
		}
	}
}
