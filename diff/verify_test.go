package diff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// A plan file edited by hand is refused, naming the first step or change
// that is not what the plan's changes, its recorded live endpoints and the
// state derive: whatever was edited, apply would carry out something the
// reviewed plan does not say.
func TestEditedPlansAreRefused(t *testing.T) {
	stepOf := func(p *Plan, method, addr string) *Step {
		for i := range p.Steps {
			if p.Steps[i].Method == method && p.Steps[i].Address == addr {
				return &p.Steps[i]
			}
		}
		t.Fatalf("no %s step for %s: %v", method, addr, stepLines(p))
		return nil
	}
	changeOf := func(p *Plan, addr string) *Change {
		for i := range p.Changes {
			if p.Changes[i].Address == addr {
				return &p.Changes[i]
			}
		}
		t.Fatalf("no change %s", addr)
		return nil
	}
	for _, tt := range []struct {
		name string
		edit func(p *Plan)
		want string
	}{
		{"an edited body", func(p *Plan) {
			s := stepOf(p, "PATCH", "shop.main.primary")
			s.Body = json.RawMessage(strings.Replace(string(s.Body), `"autoscaling_limit_max_cu":4`, `"autoscaling_limit_max_cu":8`, 1))
		}, `step 6 (shop.main.primary, PATCH /projects/dark-sun-46453911/endpoints/ep-primary) is not what the plan's changes make: its body is {"endpoint":{"autoscaling_limit_max_cu":8,"settings":{"pg_settings":{"work_mem":"64MB"}}}} in the file, but {"endpoint":{"autoscaling_limit_max_cu":4,"settings":{"pg_settings":{"work_mem":"64MB"}}}} from the changes`},
		{"a delete redirected to another managed endpoint", func(p *Plan) {
			s := stepOf(p, "DELETE", "shop.main.old")
			s.Path, s.EndpointID = "/projects/"+difftest.Proj+"/endpoints/ep-reports", "ep-reports"
		}, `step 5 (shop.main.old, DELETE /projects/dark-sun-46453911/endpoints/ep-reports) is not what the plan's changes make: its path is "/projects/dark-sun-46453911/endpoints/ep-reports" in the file, but "/projects/dark-sun-46453911/endpoints/ep-old" from the changes`},
		{"an added step", func(p *Plan) {
			extra := *stepOf(p, "DELETE", "shop.main.old")
			extra.ID, extra.Address, extra.Path, extra.EndpointID = 9, "shop.main.reports", "/projects/"+difftest.Proj+"/endpoints/ep-reports", "ep-reports"
			p.Steps = append(p.Steps, extra)
		}, `the plan file has a step 9 (shop.main.reports, DELETE /projects/dark-sun-46453911/endpoints/ep-reports) that its changes do not make`},
		{"a removed step", func(p *Plan) {
			p.Steps = append(p.Steps[:4], p.Steps[5:]...)
		}, `the changes make a step 5 (shop.main.old, DELETE /projects/dark-sun-46453911/endpoints/ep-old) that the plan file does not have`},
		{"two steps swapped", func(p *Plan) {
			p.Steps[1], p.Steps[2] = p.Steps[2], p.Steps[1]
			p.Steps[1].ID, p.Steps[2].ID = 2, 3
		}, `step 2 (shop.dev.app, DELETE /projects/dark-sun-46453911/endpoints/ep-dev-app) is not what the plan's changes make: its kind is "delete" in the file, but "create" from the changes`},
		{"a restart called harmless", func(p *Plan) {
			changeOf(p, "shop.main.primary").Attributes[0].Effect = None
		}, `change shop.main.primary: its attribute max_cu is {"name":"max_cu","before":2,"after":4,"effect":"none"}, but its values make {"name":"max_cu","before":2,"after":4,"effect":"restart"}`},
		{"a disruption played down", func(p *Plan) {
			changeOf(p, "shop.main.primary").Disruption = None
		}, `change shop.main.primary is not what its attributes make: its disruption is "none" in the file, but "restart" from the attributes`},
		{"an active compute called idle", func(p *Plan) {
			changeOf(p, "shop.main.primary").Active = false
		}, `change shop.main.primary is not what its attributes make: its active is false in the file, but true from the attributes`},
		{"a value before that was not live", func(p *Plan) {
			changeOf(p, "shop.main.primary").Attributes[0].Before = 1.0
		}, `its attribute max_cu is {"name":"max_cu","before":1,"after":4,"effect":"restart"}, but its values make {"name":"max_cu","before":2,"after":4,"effect":"restart"}`},
		{"a live endpoint rewritten", func(p *Plan) {
			p.Projects[0].Endpoints[2].MaxCU = 4
		}, `project dark-sun-46453911: its recorded live endpoints do not match its live_digest`},
		{"a summary with fewer deletes", func(p *Plan) {
			p.Summary.Delete = 0
		}, `the summary is {"create":1,"update":3,"replace":1,"delete":0,`},
		{"a restart's reason made harmless", func(p *Plan) {
			changeOf(p, "shop.main.primary").Reasons[0].Kind = ReasonNoInterruption
		}, `change shop.main.primary is not what its attributes make: its reason 1 is {"kind":"no_interruption","attribute":"max_cu"} in the file, but {"kind":"attribute_restart","attribute":"max_cu"} from the change`},
		{"a reason's attribute changed", func(p *Plan) {
			changeOf(p, "shop.main.reports").Reasons[0].Attribute = "max_cu"
		}, `change shop.main.reports is not what its attributes make: its reason 1 is {"kind":"attribute_restart","attribute":"max_cu"} in the file, but {"kind":"attribute_restart","attribute":"min_cu"} from the change`},
		{"a reason left out", func(p *Plan) {
			ch := changeOf(p, "shop.main.primary")
			ch.Reasons = ch.Reasons[:len(ch.Reasons)-1]
		}, `change shop.main.primary is not what its attributes make: the change gives a reason {"kind":"one_restart"} that the file does not have`},
		{"a reason added", func(p *Plan) {
			ch := changeOf(p, "shop.main.new")
			ch.Reasons = append(ch.Reasons, Reason{Kind: ReasonReplaceAsked})
		}, `change shop.main.new is not what its attributes make: the file has a reason {"kind":"replace_asked"} that the change does not give`},
		{"a recorded reason naming another endpoint", func(p *Plan) {
			changeOf(p, "shop.main.old").Reasons[0].EndpointID = "ep-reports"
		}, `change shop.main.old is not what its attributes make: its reason 1 ({"kind":"no_longer_configured","endpoint_id":"ep-reports"}) does not fit the change`},
		{"a reason of an unknown kind", func(p *Plan) {
			changeOf(p, "shop.main.old").Reasons[0].Kind = "because"
		}, `change shop.main.old is not what its attributes make: its reason 1 ({"kind":"because","endpoint_id":"ep-old"}) does not fit the change`},
		{"a recorded reason on a change that does not make it", func(p *Plan) {
			ch := changeOf(p, "shop.main.new")
			ch.Reasons = append(ch.Reasons, Reason{Kind: ReasonNoLongerConfigured})
		}, `change shop.main.new is not what its attributes make: its reason 3 ({"kind":"no_longer_configured"}) does not fit the change`},
		{"a delete turned into a no-op", func(p *Plan) {
			changeOf(p, "shop.main.old").Action = NoOp
		}, `step 5 (shop.main.old, DELETE /projects/dark-sun-46453911/endpoints/ep-old) that its changes do not make`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, st, live := busyScenario(false)
			p := mustBuild(t, cfg, st, live)
			tt.edit(p)
			_, err := Verify(p, st)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Verify: %v\nwant it to say: %s", err, tt.want)
			}
		})
	}
}

// Verify derives again exactly what Build made, for a state that is empty
// and for one that has something to forget, rename and record.
func TestVerifyAcceptsWhatBuildMakes(t *testing.T) {
	cfg, st, live := busyScenario(true)
	p := mustBuild(t, cfg, st, live) // mustBuild verifies, through the file too
	if _, err := Verify(p, &state.State{Lineage: "other"}); err == nil {
		t.Errorf("a plan verifies against a state other than its own, which has none of its state-only steps")
	}
}
