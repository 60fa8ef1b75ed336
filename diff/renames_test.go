package diff

import (
	"slices"
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
	if want := (Reason{Kind: ReasonMayBeRenamed, From: "shop.main.reports", EndpointID: "ep-old"}); !hasReason(changeAt(t, p, "shop.main.analytics"), want) {
		t.Errorf("reasons = %+v\nwant %+v in them", changeAt(t, p, "shop.main.analytics").Reasons, want)
	}

	other := difftest.Endpoint("ep-other", difftest.BrMain, difftest.RO, difftest.EpName("spare"))
	p = mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": old, "shop.main.spare": other}), liveOf(liveProject(difftest.Proj, old, other)))
	if ch := changeAt(t, p, "shop.main.analytics"); slices.ContainsFunc(ch.Reasons, func(r Reason) bool { return r.Kind == ReasonMayBeRenamed }) {
		t.Errorf("with two replicas deleted, reasons = %+v, want no guess at a rename", ch.Reasons)
	}
}
