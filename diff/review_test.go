package diff

import (
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// What needs review (review.go): adopting an endpoint as it is and
// forgetting a gone one need none; an adoption that also updates, a rename
// by a moved block, or either beside an adoption as it is, each does.
func TestWhatNeedsReview(t *testing.T) {
	rw := difftest.Endpoint("ep-rw", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	ro := difftest.Endpoint("ep-ro", difftest.BrMain, difftest.RO, difftest.EpName("old"))
	gone := difftest.Endpoint("ep-gone", difftest.BrMain, difftest.RO, difftest.EpName("gone"))
	for _, tc := range []struct {
		name    string
		primary []difftest.Opt
		state   map[string]api.Endpoint
		moves   []string
		review  bool
		adopted int
	}{
		{name: "adopt as it is", adopted: 1},
		{name: "adopt as it is, forget a gone one", state: map[string]api.Endpoint{"shop.main.gone": gone}, adopted: 1},
		{name: "adopt and update", primary: []difftest.Opt{difftest.CU(1, 2)}, review: true},
		{name: "adopt as it is, and a rename", state: map[string]api.Endpoint{"shop.main.old": ro}, moves: []string{"shop.main.old", "shop.main.reports"}, review: true, adopted: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks := []*config.Compute{difftest.Compute("primary", append([]difftest.Opt{difftest.Named("primary")}, tc.primary...)...)}
			if tc.moves != nil {
				blocks = append(blocks, difftest.Compute("reports", difftest.ReadOnly, difftest.Named("old")))
			}
			cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, blocks...)))
			if tc.moves != nil {
				cfg = difftest.WithMoves(cfg, tc.moves...)
			}
			st := stateWith(difftest.Proj, tc.state)
			p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, rw, ro)))
			if p.HasChanges() != tc.review || p.AdoptedAsIs() != tc.adopted || !p.HasSteps() {
				t.Errorf("needs review %v, adopted as it is %d, steps %v; want %v, %d, true", p.HasChanges(), p.AdoptedAsIs(), stepLines(p), tc.review, tc.adopted)
			}
		})
	}
}
