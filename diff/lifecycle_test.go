package diff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// prevent_destroy in the configuration fails a plan that would recreate the
// compute, pointing at the lifecycle attribute.
func TestPreventDestroyInConfig(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RO, difftest.EpName("c"))
	c := difftest.Compute("c", difftest.PreventDestroy) // read_write now: a recreate
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	d := buildErr(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), liveOf(liveProject(difftest.Proj, live)))
	if d.Summary != "Compute cannot be recreated" {
		t.Errorf("summary = %q", d.Summary)
	}
	if want := c.Range("lifecycle.prevent_destroy"); d.Range == nil || *d.Range != want {
		t.Errorf("subject = %v, want the prevent_destroy attribute at %v", d.Range, want)
	}
	if !strings.Contains(d.Detail, "type read_only -> read_write (recreate)") || !strings.Contains(d.Detail, "prevent_destroy = false") {
		t.Errorf("detail = %q, want the cause and the way out", d.Detail)
	}
}

// A compute removed from the configuration whose state says prevent_destroy
// is not deleted: the plan fails and says how to delete it or let it go.
func TestPreventDestroyInState(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": live})
	st.Computes["shop.main.primary"].PreventDestroy = true
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)))
	d := buildErr(t, cfg, st, liveOf(liveProject(difftest.Proj, live)))
	if d.Summary != "Compute cannot be deleted" {
		t.Errorf("summary = %q", d.Summary)
	}
	for _, want := range []string{"shop.main.primary (ep-x)", "prevent_destroy = false", "neonform state rm shop.main.primary"} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail = %q, want %q in it", d.Detail, want)
		}
	}
	// Without the flag the same plan deletes it.
	st.Computes["shop.main.primary"].PreventDestroy = false
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, live)))
	if ch := changeAt(t, p, "shop.main.primary"); ch.Action != Delete || ch.Disruption != Remove {
		t.Errorf("change = %s/%s, want delete", ch.Action, ch.Disruption)
	}
}

// The old endpoint of an interrupted replacement keeps its prevent_destroy
// in the state. Whether the next plan may delete it is for the
// configuration to say while the compute is configured (prevent_destroy =
// false is what allowed the replacement), and for the state once it is not.
func TestPreventDestroyOfADeposedEndpoint(t *testing.T) {
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RO, difftest.EpName("app"))
	deposed := state.DeposedAddress("shop.main.app", "ep-old")
	st := stateWith(difftest.Proj, map[string]api.Endpoint{deposed: old})
	st.Computes[deposed].PreventDestroy = true
	live := liveOf(liveProject(difftest.Proj, old))

	// The replacement goes on (the configuration still asks for a read_write).
	p := mustBuild(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("app")))), st, live)
	ch := changeAt(t, p, deposed)
	if want := []Reason{{Kind: ReasonInterruptedReplace, EndpointID: "ep-old", Address: "shop.main.app"}}; ch.Action != Delete || !cmp.Equal(ch.Reasons, want) {
		t.Errorf("change %s %+v, want the delete of the deposed endpoint, saying why", ch.Action, ch.Reasons)
	}
	// The configuration protects the compute now.
	d := buildErr(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("app", difftest.PreventDestroy)))), st, live)
	if d.Summary != "Compute cannot be deleted" || !strings.Contains(d.Detail, "To finish the replacement, set prevent_destroy = false") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
	// The compute is no longer configured: the state's prevent_destroy holds.
	d = buildErr(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain))), st, live)
	if d.Summary != "Compute cannot be deleted" || !strings.Contains(d.Detail, deposed+" (ep-old)") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
	// And described again, it is taken back, prevent_destroy and all.
	p = mustBuild(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("app", difftest.ReadOnly, difftest.PreventDestroy)))), st, live)
	if len(p.Steps) != 1 || p.Steps[0].Kind != StepState || p.Steps[0].MovedFrom != deposed || !p.Steps[0].Record.PreventDestroy {
		t.Errorf("want the endpoint taken back in the state alone: %+v", p.Steps)
	}
	if want := []Reason{{Kind: ReasonTakeBack, EndpointID: "ep-old", From: deposed}}; !cmp.Equal(changeAt(t, p, "shop.main.app").Reasons, want) {
		t.Errorf("reasons = %+v, want %+v", changeAt(t, p, "shop.main.app").Reasons, want)
	}
}

// allow_restart = false fails a plan that restarts or suspends the compute
// while it is active, and only then.
func TestAllowRestartFalse(t *testing.T) {
	for _, tt := range []struct {
		name    string
		active  bool
		compute *config.Compute
		fails   bool
	}{
		{"restart while active", true, difftest.Compute("c", difftest.CU(1, 2), difftest.NoRestart), true},
		{"suspend while active", true, difftest.Compute("c", difftest.Disabled, difftest.NoRestart), true},
		{"restart while idle", false, difftest.Compute("c", difftest.CU(1, 2), difftest.NoRestart), false},
		{"no interruption while active", true, difftest.Compute("c", difftest.SuspendAfter(600), difftest.NoRestart), false},
		{"restart while active, allowed", true, difftest.Compute("c", difftest.CU(1, 2)), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"))
			if tt.active {
				difftest.Active(&live)
			}
			cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, tt.compute)))
			st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live})
			if !tt.fails {
				mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, live)))
				return
			}
			d := buildErr(t, cfg, st, liveOf(liveProject(difftest.Proj, live)))
			if want := tt.compute.Range("lifecycle.allow_restart"); d.Summary != "Compute would be interrupted while active" || d.Range == nil || *d.Range != want {
				t.Errorf("%s at %v; want the allow_restart attribute at %v", d.Summary, d.Range, want)
			}
			if !strings.Contains(d.Detail, "Plan again when it is idle") {
				t.Errorf("detail = %q, want the way out", d.Detail)
			}
		})
	}
}
