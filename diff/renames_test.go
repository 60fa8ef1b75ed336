package diff

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// A read replica deleted and another created on its branch: the plan says
// it may be a rename and gives the moved block; with two replicas deleted,
// which one was renamed is a guess, and the plan says nothing.
func TestRenameOfAReplicaIsNamed(t *testing.T) {
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("analytics", difftest.ReadOnly))))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": old}), liveOf(liveProject(difftest.Proj, old)))
	reasons := strings.Join(changeAt(t, p, "shop.main.analytics").Reasons, "\n")
	want := "shop.main.analytics may be shop.main.reports renamed (a read replica on the same branch): if it is, this moved block keeps the endpoint ep-old and its host, with no delete and no create:\n" +
		"moved {\n  from = shop.main.reports\n  to   = shop.main.analytics\n}"
	if !strings.Contains(reasons, want) {
		t.Errorf("reasons = %q\nwant %q in them", reasons, want)
	}

	other := difftest.Endpoint("ep-other", difftest.BrMain, difftest.RO, difftest.EpName("spare"))
	p = mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": old, "shop.main.spare": other}), liveOf(liveProject(difftest.Proj, old, other)))
	if reasons := strings.Join(changeAt(t, p, "shop.main.analytics").Reasons, "\n"); strings.Contains(reasons, "renamed") {
		t.Errorf("with two replicas deleted, reasons = %q, want no guess at a rename", reasons)
	}
}
