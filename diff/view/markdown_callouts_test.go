package view

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// The callouts are read in three places: a pull-request comment, where
// GitHub breaks lines at single newlines, and a job summary or a .md file,
// where it does not and a block quote of plain lines runs together into one
// paragraph. Every line of the block quote is a list item, which reads as
// one item a line in all three.
func TestMarkdownCalloutsAreOneListItemALine(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	p.Warnings = []string{"first warning", "second warning\nwith a line break"}
	out := markdownOf(t, p, 0)
	quoted := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, ">") {
			continue
		}
		quoted++
		if !strings.HasPrefix(line, "> - ") {
			t.Errorf("a line of the callouts is not a list item, so it would run into the line before it outside a pull-request comment: %q", line)
		}
	}
	if quoted < 5 {
		t.Errorf("want at least 5 callouts (restart, recreate, delete, drift, warnings), got %d:\n%s", quoted, out)
	}
	if !strings.Contains(out, "> - **Warning:** second warning with a line break\n") {
		t.Errorf("a warning's own line break must not end the block quote:\n%s", out)
	}
}

// Deleting a compute that is running drops its connections: the callout and
// the table say it is active. Drift that the plan reverts is a callout too:
// approving the plan discards what someone changed in the console.
func TestMarkdownCallsOutActiveDeletesAndRevertedDrift(t *testing.T) {
	primary := difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(2, 4))
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RO, difftest.EpName("old"), difftest.Active)
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{
		"shop.main.primary": difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpCU(2, 2)), // live is 2-4: drift
		"shop.main.old":     old,
		"shop.main.gone":    difftest.Endpoint("ep-gone", difftest.BrMain, difftest.RO, difftest.EpName("gone")), // deleted outside neonform
	})
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.CU(2, 2)), difftest.Compute("gone", difftest.ReadOnly))))
	p := plantest.MustBuild(t, cfg, st, plantest.LiveOf(plantest.LiveProject(difftest.Proj, primary, old)))
	out := markdownOf(t, p, 0)
	for _, want := range []string{
		"> - **1 delete of an active compute** (drops connections, the host goes away): `shop.main.old`\n",
		"> - **2 changes made outside neonform are overwritten**: `shop.main.gone` (deleted outside neonform; created again, with a new host), `shop.main.primary` (max_cu 4 -> 2)\n",
		"| - | `shop.main.old` | delete | **delete** (active) | ep-old |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "> - **1 delete**") {
		t.Errorf("the active delete is also called out as a plain delete:\n%s", out)
	}
}
