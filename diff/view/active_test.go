package view

import (
	"slices"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// Whether a compute is active or idle at plan time is part of the change,
// and said in the reasons: a restart of an idle compute drops nothing.
func TestActiveVersusIdle(t *testing.T) {
	for _, tt := range []struct {
		state     api.EndpointState
		active    bool
		words     string
		restarts  int
		headlineW string
	}{
		{api.EndpointStateIdle, false, "max_cu 1 -> 2 restarts the compute; idle now, no connections to drop", 0, "update: restart, idle now, no connections to drop"},
		{api.EndpointStateActive, true, "max_cu 1 -> 2 restarts the compute and drops its connections", 1, "update: RESTART, active now, drops connections"},
		// A compute starting up is about to have connections: it counts as active.
		{api.EndpointStateInit, true, "max_cu 1 -> 2 restarts the compute and drops its connections", 1, "update: RESTART, active now, drops connections"},
	} {
		t.Run(string(tt.state), func(t *testing.T) {
			live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), func(e *api.Endpoint) { e.CurrentState = tt.state })
			cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("c", difftest.CU(1, 2)))))
			p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
			ch := plantest.ChangeAt(t, p, "shop.main.c")
			if ch.Active != tt.active {
				t.Errorf("active = %v, want %v", ch.Active, tt.active)
			}
			if !slices.Contains(reasonTexts(ch), tt.words) {
				t.Errorf("reasons = %q, want %q", reasonTexts(ch), tt.words)
			}
			if p.Summary.Restart != tt.restarts {
				t.Errorf("summary counts %d restarts of active computes, want %d", p.Summary.Restart, tt.restarts)
			}
			if got := headline(ch); got != tt.headlineW {
				t.Errorf("headline = %q, want %q", got, tt.headlineW)
			}
		})
	}
}
