package view

import (
	"slices"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// The attributes with words of their own (their table entries' reason)
// say what changing them does, to an active compute.
func TestAttributeWords(t *testing.T) {
	for _, tt := range []struct {
		name    string
		compute []difftest.Opt
		live    []difftest.EpOpt
		words   string
	}{
		{"pg_settings", []difftest.Opt{difftest.PG("work_mem", "64MB")}, nil,
			"pg_settings.work_mem (unset) -> 64MB takes effect at a restart: it restarts the compute and drops its connections"},
		{"disable", []difftest.Opt{difftest.Disabled}, nil,
			"disabled false -> true suspends the compute and refuses new connections; its connections drop"},
		{"enable", nil, []difftest.EpOpt{difftest.EpDisabled},
			"disabled true -> false lets the compute accept connections again; nothing running is interrupted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, append([]difftest.EpOpt{difftest.EpName("c"), difftest.Active}, tt.live...)...)
			cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("c", tt.compute...))))
			p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
			if ch := plantest.ChangeAt(t, p, "shop.main.c"); !slices.Contains(reasonTexts(ch), tt.words) {
				t.Errorf("reasons = %q, want %q", reasonTexts(ch), tt.words)
			}
		})
	}
}
