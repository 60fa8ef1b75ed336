package diff

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// policyWorld is one compute on main, live and recorded as ep-x (idle,
// 1 CU), planned by a block made with opts.
func policyWorld(opts ...difftest.Opt) (*config.Config, *state.State, *Live) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("c", opts...))))
	return cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), liveOf(liveProject(difftest.Proj, live))
}

// holdTo verifies p against st, as apply does, then holds it to cfg.
func holdTo(t *testing.T, p *Plan, st *state.State, cfg *config.Config, diags diag.Diagnostics) error {
	t.Helper()
	steps, err := Verify(p, st)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return HoldTo(p, st, steps, PolicyOf(cfg, diags))
}

// wantLoosened checks that err refuses the plan for field of shop.main.c,
// and says to make a new plan.
func wantLoosened(t *testing.T, err error, field string) {
	t.Helper()
	if err == nil {
		t.Fatalf("HoldTo accepted a plan that loosens %s", field)
	}
	for _, want := range []string{field + " of change shop.main.c (", "make a new plan"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want %q in it", err, want)
		}
	}
}

// A plan made under a looser configuration than the current one, or edited
// to loosen what its configuration said, is refused; under the same or a
// looser configuration it is not.
func TestHoldToRefusesWhatTheConfigurationForbids(t *testing.T) {
	restart := difftest.CU(2, 2)
	recreate := difftest.ReadOnly
	for _, tc := range []struct {
		name         string
		made, strict []difftest.Opt
		field        string
		edit         func(*Change) // the same loosening made by editing a plan made under strict
	}{
		{"allow_restart", []difftest.Opt{restart}, []difftest.Opt{restart, difftest.NoRestart}, "restart_idle_only",
			func(ch *Change) { ch.RestartIdleOnly = false }},
		{"allow_restart on a replace", []difftest.Opt{recreate}, []difftest.Opt{recreate, difftest.NoRestart}, "restart_idle_only",
			func(ch *Change) { ch.RestartIdleOnly = false }},
		{"prevent_destroy on a replace", []difftest.Opt{recreate}, []difftest.Opt{recreate, difftest.PreventDestroy}, "prevent_destroy", nil},
		{"prevent_destroy recorded", []difftest.Opt{restart}, []difftest.Opt{restart, difftest.PreventDestroy}, "prevent_destroy",
			func(ch *Change) { ch.PreventDestroy = false }},
		{"prevent_destroy of a no-op", nil, []difftest.Opt{difftest.PreventDestroy}, "prevent_destroy",
			func(ch *Change) { ch.PreventDestroy = false }},
		{"sensitive", []difftest.Opt{difftest.PG("work_mem", "64MB")}, []difftest.Opt{difftest.PG("work_mem", "64MB"), secretSettings}, "sensitive",
			func(ch *Change) { ch.Sensitive, ch.SensitiveFrom = nil, nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, st, live := policyWorld(tc.made...)
			strict, _, _ := policyWorld(tc.strict...)
			p := mustBuild(t, cfg, st, live)
			if err := holdTo(t, p, st, cfg, nil); err != nil {
				t.Fatalf("the plan, held to the configuration it was made from: %v", err)
			}
			wantLoosened(t, holdTo(t, p, st, strict, nil), tc.field)
			if tc.edit == nil {
				return
			}
			p = mustBuild(t, strict, st, live)
			if err := holdTo(t, p, st, strict, nil); err != nil {
				t.Fatalf("the strict plan, held to its configuration: %v", err)
			}
			if err := holdTo(t, p, st, cfg, nil); err != nil {
				t.Errorf("a plan stricter than the configuration is refused: %v", err)
			}
			tc.edit(&p.Changes[0])
			restep(t, p, st)
			wantLoosened(t, holdTo(t, p, st, strict, nil), tc.field)
		})
	}
}

// restep makes the steps and summary of an edited plan what its changes
// derive, as an editor who knows the format would: Verify accepts it.
func restep(t *testing.T, p *Plan, st *state.State) {
	t.Helper()
	d, err := rederive(context.Background(), p, st)
	if err != nil {
		t.Fatal(err)
	}
	p.Steps, p.Summary = d.Steps, d.Summary
}

func secretSettings(c *config.Compute) {
	c.Sensitive = map[string]bool{"pg_settings": true}
	c.SensitiveFrom = map[string][]string{"pg_settings": {"db_tuning"}}
}

// A compute no longer configured is deleted only if the state's record
// allows it, as when planned; a delete of a configured compute (a destroy
// plan) only if its block does.
func TestHoldToDeletes(t *testing.T) {
	_, st, live := policyWorld()
	none := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)))
	p := mustBuild(t, none, st, live)
	if err := holdTo(t, p, st, none, nil); err != nil {
		t.Fatalf("a delete the state allows: %v", err)
	}
	st.Computes["shop.main.c"].PreventDestroy = true
	wantLoosened(t, HoldTo(p, st, p.Steps, PolicyOf(none, nil)), "prevent_destroy")

	st.Computes["shop.main.c"].PreventDestroy = false
	free, _, _ := policyWorld()
	strict, _, _ := policyWorld(difftest.PreventDestroy)
	d, diags := Build(free, st, live, withScope(Scope{Destroy: true}))
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	if err := holdTo(t, d, st, free, nil); err != nil {
		t.Fatalf("a destroy the configuration allows: %v", err)
	}
	wantLoosened(t, holdTo(t, d, st, strict, nil), "prevent_destroy")
}

// A compute a removed block let go (destroy = false) is not forgotten
// once the configuration declares it again.
func TestHoldToForget(t *testing.T) {
	cfg, st, live := policyWorld()
	none := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)))
	none.Removals = append(none.Removals, &config.Removal{From: "shop.main.c", DeclRange: difftest.At(), FromRange: difftest.At()})
	p := mustBuild(t, none, st, live)
	if len(p.Forget) != 1 {
		t.Fatalf("the plan forgets %v, want shop.main.c", p.Forget)
	}
	if err := holdTo(t, p, st, none, nil); err != nil {
		t.Fatalf("a forget the configuration asks for: %v", err)
	}
	err := holdTo(t, p, st, cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "forget of shop.main.c (step 1, state only): the configuration (main.hcl:") || !strings.Contains(err.Error(), "make a new plan") {
		t.Errorf("a forget of a compute declared again: %v", err)
	}
}

func withScope(s Scope) Options {
	o := testOpts
	o.Scope = s
	return o
}

// A lifecycle the load could not read (a variable without a value when a
// saved plan is applied) is the strictest; an instance of a branch rule is
// held to the rule's block.
func TestHoldToUnreadLifecycleAndRules(t *testing.T) {
	cfg, st, live := policyWorld(difftest.CU(2, 2))
	p := mustBuild(t, cfg, st, live)
	unread, _, _ := policyWorld(difftest.CU(2, 2))
	c := unread.Projects[0].Branches[0].Computes[0]
	at := hcl.Range{Filename: "main.hcl", Start: hcl.Pos{Byte: 100}, End: hcl.Pos{Byte: 130}}
	c.Ranges.Set("lifecycle.allow_restart", at)
	inside := hcl.Range{Filename: "main.hcl", Start: hcl.Pos{Byte: 116}, End: hcl.Pos{Byte: 127}}
	elsewhere := hcl.Range{Filename: "other.hcl", Start: hcl.Pos{Byte: 116}, End: hcl.Pos{Byte: 127}}
	if err := holdTo(t, p, st, unread, diag.Diagnostics{{Severity: diag.SeverityError, Range: &elsewhere}}); err != nil {
		t.Fatalf("an error elsewhere made the lifecycle unread: %v", err)
	}
	err := holdTo(t, p, st, unread, diag.Diagnostics{{Severity: diag.SeverityError, Range: &inside}})
	wantLoosened(t, err, "restart_idle_only")
	if !strings.Contains(err.Error(), "counts as the strictest") {
		t.Errorf("error %q does not say why", err)
	}

	pol := PolicyOf(difftest.CfgOf(difftest.WithRules(difftest.Project("shop", difftest.Proj),
		difftest.Rule("previews", []string{"preview/*"}, nil, difftest.Compute("primary", difftest.NoRestart)))), nil)
	if c := pol.compute(difftest.PreviewPR1); c == nil || c.AllowRestart {
		t.Errorf("the instance %s is held to %+v, want the rule's block", difftest.PreviewPR1, c)
	}
	if c := pol.compute(`shop.main["x"].primary`); c != nil {
		t.Errorf("an address no block has is held to %+v", c)
	}
}
