package diff

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// defaultsBlock is a project's defaults block as config reads it.
func defaultsBlock(p *config.Project, opts ...difftest.Opt) *config.Project {
	c := difftest.Compute(config.DefaultsLabel, opts...)
	c.Name, c.Address = "", p.Label+"."+config.DefaultsLabel
	p.Defaults = c
	return p
}

// A defaults block is compared with the project's defaults by the attribute
// table's rules, only in what a project's defaults have, each change with
// no effect on running computes; the service's defaults stand for what the
// project leaves out (1 CU, no settings). A saved plan whose defaults
// change was edited to carry an attribute defaults do not have is refused.
func TestDefaultsArePlannedAsTheirOwnChange(t *testing.T) {
	primary := difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(defaultsBlock(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"))),
		difftest.CU(0.25, 1), difftest.PG("work_mem", "8MB")))
	lp := liveProject(difftest.Proj, primary)
	lp.Defaults = &api.DefaultEndpointSettings{}
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": primary}), liveOf(lp))
	if len(p.Defaults) != 1 || p.Summary.Defaults != 1 {
		t.Fatalf("defaults %+v, summary %+v", p.Defaults, p.Summary)
	}
	var names []string
	for _, a := range p.Defaults[0].Attributes {
		names = append(names, a.Name)
		if a.Effect != None {
			t.Errorf("%s: effect %v, want none: computes that exist keep their values", a.Name, a.Effect)
		}
	}
	if got := strings.Join(names, " "); got != "min_cu pg_settings.work_mem" {
		t.Errorf("attributes %s, want min_cu pg_settings.work_mem", got)
	}
	var step *Step
	for i := range p.Steps {
		if p.Steps[i].Kind == StepDefaults {
			step = &p.Steps[i]
		}
	}
	if step == nil || step.Method != "PATCH" || step.Path != "/projects/"+difftest.Proj ||
		string(step.Body) != `{"project":{"default_endpoint_settings":{"pg_settings":{"work_mem":"8MB"},"autoscaling_limit_min_cu":0.25,"autoscaling_limit_max_cu":1,"suspend_timeout_seconds":0}}}` {
		t.Fatalf("step %+v", step)
	}

	edited := *p
	edited.Defaults = []DefaultsChange{{Address: "shop.defaults", ProjectID: difftest.Proj,
		Attributes: append([]Attribute{{Name: "disabled", Before: false, After: true, Effect: None}}, p.Defaults[0].Attributes...)}}
	if err := Check(&edited); err == nil || !strings.Contains(err.Error(), `"disabled" that a project's defaults do not have`) {
		t.Errorf("Check of a defaults change with disabled: %v", err)
	}

	// The same defaults live: nothing to change, but the state records
	// them (a state-only step), so that a change in the console later is
	// drift; once it does, no step.
	lp.Defaults = &api.DefaultEndpointSettings{AutoscalingLimitMinCU: ptr(0.25), PgSettings: map[string]string{"work_mem": "8MB"}}
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": primary})
	p = mustBuild(t, cfg, st, liveOf(lp))
	if p.Summary.Defaults != 0 || p.Summary.StateOnly != 1 || len(p.Steps) != 1 || p.Steps[0].Address != "shop.defaults" {
		t.Fatalf("defaults that match, not recorded: summary %+v, steps %+v", p.Summary, p.Steps)
	}
	if err := p.Steps[0].UpdateState(st, ""); err != nil || st.Defaults["shop.defaults"] == nil || st.Defaults["shop.defaults"].Applied.MinCU != 0.25 {
		t.Fatalf("recording them: %v, %+v", err, st.Defaults)
	}
	p = mustBuild(t, cfg, st, liveOf(lp))
	if p.HasSteps() {
		t.Errorf("defaults that match, recorded: steps %+v", p.Steps)
	}
}
