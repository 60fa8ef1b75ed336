package diff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neonform/neonform/state"
)

// The rules every plan keeps (checkSteps): a step that is not a call apply
// carries out safely, or that waits for what does not come before it, is
// refused, whether a file holds it or the planner made it.
func TestDamagedPlansAreRefused(t *testing.T) {
	good := func() *Plan {
		return &Plan{
			Projects: []Project{{ID: "p1"}, {ID: "p2"}},
			Steps: []Step{
				{ID: 1, ProjectID: "p1", Address: "a.m.x", Kind: StepCreate, Method: "POST", Path: "/projects/p1/endpoints",
					Name: "x", Record: &state.Compute{}, Body: json.RawMessage(`{}`)},
				{ID: 2, ProjectID: "p1", Address: "a.m.y", Kind: StepUpdate, Method: "PATCH", Path: "/projects/p1/endpoints/ep-y",
					EndpointID: "ep-y", Record: &state.Compute{EndpointID: "ep-y"}, After: []int{1}},
				{ID: 3, ProjectID: "p2", Address: "b.m.z", Kind: StepDelete, Method: "DELETE", Path: "/projects/p2/endpoints/ep-z", EndpointID: "ep-z"},
				{ID: 4, ProjectID: "p2", Address: "b.m.w", Kind: StepState, Forget: "b.m.w"},
				{ID: 5, ProjectID: "p1", Address: "a.defaults", Kind: StepDefaults, Method: "PATCH", Path: "/projects/p1", Body: json.RawMessage(`{}`)},
			},
		}
	}
	if err := checkSteps(never(), good()); err != nil {
		t.Fatalf("a sound plan is refused: %v", err)
	}
	for _, c := range []struct {
		name  string
		edit  func(p *Plan)
		wants string
	}{
		{"unplanned project", func(p *Plan) { p.Projects = p.Projects[:1] }, `its project "p2" is not among the plan's projects`},
		{"waits for a later step", func(p *Plan) { p.Steps[0].After = []int{2} }, "waits for step 2, which does not come before it"},
		{"waits across projects", func(p *Plan) { p.Steps[2].After = []int{1} }, "waits for step 1 of another project"},
		{"duplicate id", func(p *Plan) { p.Steps[1].ID = 1 }, "another step has the same id"},
		{"create elsewhere", func(p *Plan) { p.Steps[0].Path = "/projects/p2/endpoints" }, "a create must be POST /projects/p1/endpoints"},
		{"create without name", func(p *Plan) { p.Steps[0].Name = "" }, "a create must name the endpoint"},
		{"update of another endpoint", func(p *Plan) { p.Steps[1].Path = "/projects/p1/endpoints/ep-other" }, "an update must be PATCH /projects/p1/endpoints/ep-y"},
		{"delete as a GET", func(p *Plan) { p.Steps[2].Method = "GET" }, "a delete must be DELETE"},
		{"delete with a path trick", func(p *Plan) { p.Steps[2].EndpointID = "ep-z/restart" }, "a delete needs a valid endpoint id"},
		{"state step that calls", func(p *Plan) { p.Steps[3].Method = "DELETE" }, "a state-only step must not call the API"},
		{"id zero", func(p *Plan) { p.Steps[0].ID = 0 }, "its id must be a positive number"},
		{"no address", func(p *Plan) { p.Steps[3].Address = "" }, "it has no address"},
		{"delete with a body", func(p *Plan) { p.Steps[2].Body = json.RawMessage(`0`) }, "a delete has no body"},
		{"delete without endpoint", func(p *Plan) { p.Steps[2].EndpointID = "" }, "a delete needs a valid endpoint id"},
		{"update with a path trick", func(p *Plan) { p.Steps[1].EndpointID = "ep-y?x=1" }, "an update needs a valid endpoint id"},
		{"update of an id the service never gives", func(p *Plan) { p.Steps[1].EndpointID = "ep-Y\x1b[2J" }, "an update needs a valid endpoint id"},
		{"delete of an id the service never gives", func(p *Plan) { p.Steps[2].EndpointID = "ep z" }, "a delete needs a valid endpoint id"},
		{"update as a PUT", func(p *Plan) { p.Steps[1].Method = "PUT" }, "an update must be PATCH"},
		{"update without record", func(p *Plan) { p.Steps[1].Record = nil }, "an update must say what to record in the state"},
		{"create as a PUT", func(p *Plan) { p.Steps[0].Method = "PUT" }, "a create must be POST"},
		{"create without record", func(p *Plan) { p.Steps[0].Record = nil }, "a create must say what to record in the state"},
		{"state step records no endpoint", func(p *Plan) { p.Steps[3].Record = &state.Compute{} }, "it records a compute without an endpoint id"},
		{"state step with a path", func(p *Plan) { p.Steps[3].Path = "/projects/p2" }, "a state-only step must not call the API"},
		{"a call that forgets a gone compute", func(p *Plan) { p.Steps[2].Gone = true }, "only a state-only step forgets a gone compute"},
		{"a gone step that forgets another", func(p *Plan) { p.Steps[3].Gone, p.Steps[3].Forget = true, "b.m.v" }, "a step that forgets a gone compute forgets its own address and records nothing"},
		{"a gone step that records", func(p *Plan) {
			p.Steps[3].Gone, p.Steps[3].Record = true, &state.Compute{EndpointID: "ep-w"}
		}, "forgets its own address and records nothing"},
		{"a gone step that renames", func(p *Plan) { p.Steps[3].Gone, p.Steps[3].MovedFrom = true, "b.m.v" }, "forgets its own address and records nothing"},
		{"defaults of another project", func(p *Plan) { p.Steps[4].Path = "/projects/p2" }, "a change to a project's defaults must be PATCH /projects/p1"},
		{"defaults as a POST", func(p *Plan) { p.Steps[4].Method = "POST" }, "a change to a project's defaults must be PATCH /projects/p1"},
		{"defaults without a body", func(p *Plan) { p.Steps[4].Body = nil }, "a change to a project's defaults sends a body and acts on no endpoint"},
		{"defaults that record", func(p *Plan) { p.Steps[4].Record = &state.Compute{EndpointID: "ep-y"} }, "sends a body and acts on no endpoint"},
		{"defaults on an endpoint", func(p *Plan) { p.Steps[4].EndpointID = "ep-y" }, "sends a body and acts on no endpoint"},
		{"unknown kind", func(p *Plan) { p.Steps[3].Kind = StepKind(99) }, "unknown kind of step"},
	} {
		p := good()
		c.edit(p)
		if err := checkSteps(never(), p); err == nil || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.wants)
		}
	}
}

// The state-only steps are as many as the summary counts, and at least one
// for each adoption or rename that needs no call.
func TestStateOnlyStepsAreCounted(t *testing.T) {
	p := &Plan{
		Projects: []Project{{ID: "p1"}},
		Changes:  []Change{{Address: "a.m.x", Action: NoOp, ProjectID: "p1", EndpointID: "ep-x", MovedFrom: "a.m.old"}},
		Steps:    []Step{{ID: 1, ProjectID: "p1", Address: "a.m.x", Kind: StepState, EndpointID: "ep-x", MovedFrom: "a.m.old"}},
		Summary:  Summary{NoOp: 1, StateOnly: 1},
	}
	if err := checkRules(never(), p); err != nil {
		t.Fatalf("a sound plan is refused: %v", err)
	}
	p.Summary.StateOnly = 2
	if err := checkRules(never(), p); err == nil || err.Error() != "the plan file has 1 state-only step, but its summary counts 2" {
		t.Errorf("a summary counting more: %v", err)
	}
	p.Steps, p.Summary.StateOnly = nil, 0
	if err := checkRules(never(), p); err == nil || err.Error() != "the plan file has 0 state-only steps, but its changes adopt or rename 1 compute without a call, a state-only step each" {
		t.Errorf("a rename without its step: %v", err)
	}
}
