package diff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// Each attribute's effect on a running compute (docs/architecture.md, What each change does), the
// action it makes, and the one call that carries it out.
func TestAttributeEffects(t *testing.T) {
	tests := []struct {
		name       string
		live       api.Endpoint
		compute    *config.Compute
		attrs      []string // name:effect
		action     Action
		disruption Disruption
		body       string // the PATCH body; "" for no PATCH
	}{
		{
			name:    "max_cu restarts",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpCU(0.25, 2)),
			compute: difftest.Compute("c", difftest.CU(0.25, 4)),
			attrs:   []string{"max_cu:restart"}, action: Update, disruption: Restart,
			body: `{"endpoint":{"autoscaling_limit_max_cu":4}}`,
		},
		{
			name:    "min_cu restarts",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpCU(0.25, 2)),
			compute: difftest.Compute("c", difftest.CU(0.5, 2)),
			attrs:   []string{"min_cu:restart"}, action: Update, disruption: Restart,
			body: `{"endpoint":{"autoscaling_limit_min_cu":0.5}}`,
		},
		{
			name:    "a fixed size sets both limits, in one PATCH",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c")),
			compute: difftest.Compute("c", difftest.CU(2, 2)),
			attrs:   []string{"min_cu:restart", "max_cu:restart"}, action: Update, disruption: Restart,
			body: `{"endpoint":{"autoscaling_limit_min_cu":2,"autoscaling_limit_max_cu":2}}`,
		},
		{
			name:    "pg_settings restart; the PATCH carries the whole map",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpPG("work_mem", "4MB"), difftest.EpPG("jit", "off")),
			compute: difftest.Compute("c", difftest.PG("work_mem", "64MB"), difftest.PG("jit", "off")),
			attrs:   []string{"pg_settings.work_mem:restart"}, action: Update, disruption: Restart,
			body: `{"endpoint":{"settings":{"pg_settings":{"jit":"off","work_mem":"64MB"}}}}`,
		},
		{
			name:    "removing every pg_setting sends an empty map, not null",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpPG("work_mem", "4MB")),
			compute: difftest.Compute("c"),
			attrs:   []string{"pg_settings.work_mem:restart"}, action: Update, disruption: Restart,
			body: `{"endpoint":{"settings":{"pg_settings":{}}}}`,
		},
		{
			name:    "suspend_timeout changes nothing running",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpSuspend(300)),
			compute: difftest.Compute("c", difftest.SuspendAfter(900)),
			attrs:   []string{"suspend_timeout:none"}, action: Update, disruption: None,
			body: `{"endpoint":{"suspend_timeout_seconds":900}}`,
		},
		{
			name:    "never suspend",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c")),
			compute: difftest.Compute("c", difftest.SuspendAfter(config.SuspendNever)),
			attrs:   []string{"suspend_timeout:none"}, action: Update, disruption: None,
			body: `{"endpoint":{"suspend_timeout_seconds":-1}}`,
		},
		{
			name:    "the service default is 300 seconds: no change",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpSuspend(300)),
			compute: difftest.Compute("c", difftest.SuspendAfter(config.SuspendDefault)),
			action:  NoOp, disruption: None,
		},
		{
			name:    "name changes nothing running",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("old")),
			compute: difftest.Compute("c", difftest.Named("new")),
			attrs:   []string{"name:none"}, action: Update, disruption: None,
			body: `{"endpoint":{"name":"new"}}`,
		},
		{
			name:    "disabling suspends",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c")),
			compute: difftest.Compute("c", difftest.Disabled),
			attrs:   []string{"disabled:suspend"}, action: Update, disruption: Suspend,
			body: `{"endpoint":{"disabled":true}}`,
		},
		{
			name:    "enabling interrupts nothing",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpDisabled),
			compute: difftest.Compute("c"),
			attrs:   []string{"disabled:none"}, action: Update, disruption: None,
			body: `{"endpoint":{"disabled":false}}`,
		},
		{
			name:    "type cannot be patched: recreate",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RO, difftest.EpName("c")),
			compute: difftest.Compute("c"),
			attrs:   []string{"type:recreate"}, action: Replace, disruption: Recreate,
		},
		{
			name:    "every change of one compute goes into one PATCH; the worst effect wins",
			live:    difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("old"), difftest.EpCU(1, 1), difftest.EpSuspend(300)),
			compute: difftest.Compute("c", difftest.Named("c"), difftest.CU(1, 2), difftest.SuspendAfter(600), difftest.PG("work_mem", "8MB"), difftest.Disabled),
			attrs:   []string{"max_cu:restart", "pg_settings.work_mem:restart", "suspend_timeout:none", "name:none", "disabled:suspend"},
			action:  Update, disruption: Suspend,
			body: `{"endpoint":{"name":"c","settings":{"pg_settings":{"work_mem":"8MB"}},"autoscaling_limit_max_cu":2,"disabled":true,"suspend_timeout_seconds":600}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, tt.compute)))
			st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": tt.live})
			p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, tt.live)))
			ch := changeAt(t, p, "shop.main.c")
			var attrs []string
			for _, a := range ch.Attributes {
				attrs = append(attrs, a.Name+":"+a.Effect.String())
			}
			if !cmp.Equal(attrs, tt.attrs) {
				t.Errorf("attributes = %v, want %v", attrs, tt.attrs)
			}
			if tt.disruption == None && tt.action == Update && !hasReason(ch, Reason{Kind: ReasonNoInterruption}) && !hasReason(ch, Reason{Kind: ReasonEnable, Attribute: "disabled"}) {
				t.Errorf("reasons = %+v, want them to say nothing is interrupted", ch.Reasons)
			}
			if ch.Action != tt.action || ch.Disruption != tt.disruption {
				t.Errorf("action %s, disruption %s; want %s, %s", ch.Action, ch.Disruption, tt.action, tt.disruption)
			}
			var patches []Step
			for _, s := range p.Steps {
				if s.Method == "PATCH" {
					patches = append(patches, s)
				}
			}
			if tt.body == "" {
				if len(patches) != 0 {
					t.Errorf("want no PATCH, got %s", patches[0].Body)
				}
				return
			}
			if len(patches) != 1 {
				t.Fatalf("want one PATCH, got %d (steps %v)", len(patches), stepLines(p))
			}
			if got := string(patches[0].Body); got != tt.body {
				t.Errorf("PATCH body\n got %s\nwant %s", got, tt.body)
			}
			if want := "/projects/" + difftest.Proj + "/endpoints/ep-x"; patches[0].Path != want || patches[0].EndpointID != "ep-x" {
				t.Errorf("PATCH %s (endpoint %s), want %s", patches[0].Path, patches[0].EndpointID, want)
			}
		})
	}
}

// The attribute rows keep the live value before and the configured after,
// and the state record is what the configuration says.
func TestAttributeBeforeAfterAndRecord(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpCU(0.25, 2), difftest.EpPG("work_mem", "4MB"))
	c := difftest.Compute("c", difftest.CU(0.25, 4), difftest.PG("work_mem", "64MB"), difftest.PG("jit", "off"))
	c.PreventDestroy = true
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), liveOf(liveProject(difftest.Proj, live)))
	ch := changeAt(t, p, "shop.main.c")
	want := []Attribute{
		{Name: "max_cu", Before: 2.0, After: 4.0, Effect: Restart},
		{Name: "pg_settings.jit", Before: nil, After: "off", Effect: Restart},
		{Name: "pg_settings.work_mem", Before: "4MB", After: "64MB", Effect: Restart},
	}
	if !cmp.Equal(ch.Attributes, want) {
		t.Errorf("attributes:\n%s", cmp.Diff(want, ch.Attributes))
	}
	wantReasons := []Reason{{Kind: ReasonAttributeRestart, Attribute: "max_cu"},
		{Kind: ReasonSettingRestart, Attribute: "pg_settings.jit"}, {Kind: ReasonSettingRestart, Attribute: "pg_settings.work_mem"},
		{Kind: ReasonOneRestart}}
	if !cmp.Equal(ch.Reasons, wantReasons) {
		t.Errorf("reasons:\n%s", cmp.Diff(wantReasons, ch.Reasons))
	}
	if !strings.Contains(ch.Size, "0.25-4 CU autoscaling, 1-16 GB RAM") {
		t.Errorf("size = %q, want the new size in words", ch.Size)
	}
	rec := p.Steps[0].Record
	wantRec := &state.Compute{EndpointID: "ep-x", ProjectID: difftest.Proj, BranchID: difftest.BrMain, Type: difftest.RW, PreventDestroy: true,
		Applied: state.Attributes{Name: "c", MinCU: 0.25, MaxCU: 4, PgSettings: map[string]string{"jit": "off", "work_mem": "64MB"}}}
	if !cmp.Equal(rec, wantRec) {
		t.Errorf("record:\n%s", cmp.Diff(wantRec, rec))
	}
}

// A create sends every configured attribute, the name included (apply finds
// a compute it may have made by it after an ambiguous failure).
func TestCreateBody(t *testing.T) {
	c := difftest.Compute("reports", difftest.ReadOnly, difftest.CU(0.5, 2), difftest.SuspendAfter(600), difftest.PG("work_mem", "8MB"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	p := mustBuild(t, cfg, nil, liveOf(liveProject(difftest.Proj)))
	if len(p.Steps) != 1 {
		t.Fatalf("steps = %v", stepLines(p))
	}
	s := p.Steps[0]
	if s.Method != "POST" || s.Path != "/projects/"+difftest.Proj+"/endpoints" || s.Kind != StepCreate || s.Name != "reports" || s.EndpointID != "" {
		t.Errorf("step = %+v", s)
	}
	var body map[string]map[string]any
	if err := json.Unmarshal(s.Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"branch_id": difftest.BrMain, "type": "read_only", "name": "reports",
		"autoscaling_limit_min_cu": 0.5, "autoscaling_limit_max_cu": 2.0,
		"suspend_timeout_seconds": 600.0, "disabled": false,
		"settings": map[string]any{"pg_settings": map[string]any{"work_mem": "8MB"}},
	}
	if !cmp.Equal(body["endpoint"], want) {
		t.Errorf("create body:\n%s", cmp.Diff(want, body["endpoint"]))
	}
}
