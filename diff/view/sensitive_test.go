package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// A compute no longer configured is deleted; the state's record of which
// of its values are sensitive hides their drift, and the change carries it.
func TestDeletedComputeKeepsItsSensitivity(t *testing.T) {
	applied := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RO, difftest.EpName("old"), difftest.EpPG("work_mem", "TOPSECRET-1"))
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RO, difftest.EpName("old"), difftest.EpPG("work_mem", "TOPSECRET-2"))
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.old": applied})
	st.Computes["shop.main.old"].Sensitive = []string{"pg_settings"}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)))
	p := plantest.MustBuild(t, cfg, st, plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))

	if ch := plantest.ChangeAt(t, p, "shop.main.old"); ch.Action != diff.Delete || !slices.Equal(ch.Sensitive, []string{"pg_settings"}) {
		t.Errorf("change: %s, sensitive %q", ch.Action, ch.Sensitive)
	}
	if len(p.Drift) != 1 || len(p.Drift[0].Attributes) != 1 || !p.Drift[0].Attributes[0].Sensitive {
		t.Fatalf("drift: %+v", p.Drift)
	}
	var out strings.Builder
	if err := Human(&out, p, HumanOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "TOPSECRET") {
		t.Errorf("the plan shows a sensitive value:\n%s", out.String())
	}
	destroy := plantest.BuildScoped(t, cfg, st, plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)), diff.Scope{Destroy: true})
	if ch := plantest.ChangeAt(t, destroy, "shop.main.old"); ch.Action != diff.Delete || !slices.Equal(ch.Sensitive, []string{"pg_settings"}) {
		t.Errorf("destroy: %s, sensitive %q", ch.Action, ch.Sensitive)
	}
}
