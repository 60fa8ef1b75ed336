package diff

import (
	"slices"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
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

// A branch block regrouped under another label (as under a branches rule),
// its two read replicas with it: each create is paired with the delete of
// its own compute label, and given the moved block; labels that do not
// pair every one are no guess.
func TestRegroupedBranchNamesEachRename(t *testing.T) {
	a := difftest.Endpoint("ep-a", difftest.BrDev, difftest.RO, difftest.EpName("a"))
	b := difftest.Endpoint("ep-b", difftest.BrDev, difftest.RO, difftest.EpName("b"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.dev.a": a, "shop.dev.b": b})
	live := liveOf(liveProject(difftest.Proj, a, b))
	regrouped := func(labels ...string) *Plan {
		var computes []*config.Compute
		for _, l := range labels {
			computes = append(computes, difftest.Compute(l, difftest.ReadOnly))
		}
		return mustBuild(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("preview", difftest.BrDev, computes...))), st, live)
	}
	p := regrouped("a", "b")
	for _, c := range []struct{ to, from, ep string }{{"shop.preview.a", "shop.dev.a", "ep-a"}, {"shop.preview.b", "shop.dev.b", "ep-b"}} {
		if want := (Reason{Kind: ReasonMayBeRenamed, From: c.from, EndpointID: c.ep}); !hasReason(changeAt(t, p, c.to), want) {
			t.Errorf("%s: reasons = %+v\nwant %+v in them", c.to, changeAt(t, p, c.to).Reasons, want)
		}
	}
	p = regrouped("a", "c")
	for _, to := range []string{"shop.preview.a", "shop.preview.c"} {
		if ch := changeAt(t, p, to); slices.ContainsFunc(ch.Reasons, func(r Reason) bool { return r.Kind == ReasonMayBeRenamed }) {
			t.Errorf("%s: with labels that do not all pair, reasons = %+v, want no guess at a rename", to, ch.Reasons)
		}
	}
}
