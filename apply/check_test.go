package apply

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

func TestDamagedPlansAreRefused(t *testing.T) {
	good := func() *diff.Plan {
		return &diff.Plan{
			Projects: []diff.Project{{ID: "p1"}, {ID: "p2"}},
			Steps: []diff.Step{
				{ID: 1, ProjectID: "p1", Address: "a.m.x", Kind: diff.StepCreate, Method: "POST", Path: "/projects/p1/endpoints",
					Name: "x", Record: &state.Compute{}, Body: json.RawMessage(`{}`)},
				{ID: 2, ProjectID: "p1", Address: "a.m.y", Kind: diff.StepUpdate, Method: "PATCH", Path: "/projects/p1/endpoints/ep-y",
					EndpointID: "ep-y", Record: &state.Compute{EndpointID: "ep-y"}, After: []int{1}},
				{ID: 3, ProjectID: "p2", Address: "b.m.z", Kind: diff.StepDelete, Method: "DELETE", Path: "/projects/p2/endpoints/ep-z", EndpointID: "ep-z"},
				{ID: 4, ProjectID: "p2", Address: "b.m.w", Kind: diff.StepState, Forget: "b.m.w"},
			},
		}
	}
	if err := checkPlan(good()); err != nil {
		t.Fatalf("a sound plan is refused: %v", err)
	}
	for _, c := range []struct {
		name  string
		edit  func(p *diff.Plan)
		wants string
	}{
		{"unplanned project", func(p *diff.Plan) { p.Projects = p.Projects[:1] }, `its project "p2" is not among the plan's projects`},
		{"waits for a later step", func(p *diff.Plan) { p.Steps[0].After = []int{2} }, "waits for step 2, which does not come before it"},
		{"waits across projects", func(p *diff.Plan) { p.Steps[2].After = []int{1} }, "waits for step 1 of another project"},
		{"duplicate id", func(p *diff.Plan) { p.Steps[1].ID = 1 }, "another step has the same id"},
		{"create elsewhere", func(p *diff.Plan) { p.Steps[0].Path = "/projects/p2/endpoints" }, "a create must be POST /projects/p1/endpoints"},
		{"create without name", func(p *diff.Plan) { p.Steps[0].Name = "" }, "a create must name the endpoint"},
		{"update of another endpoint", func(p *diff.Plan) { p.Steps[1].Path = "/projects/p1/endpoints/ep-other" }, "an update must be PATCH /projects/p1/endpoints/ep-y"},
		{"delete as a GET", func(p *diff.Plan) { p.Steps[2].Method = "GET" }, "a delete must be DELETE"},
		{"delete with a path trick", func(p *diff.Plan) { p.Steps[2].EndpointID = "ep-z/restart" }, "a delete needs a valid endpoint id"},
		{"state step that calls", func(p *diff.Plan) { p.Steps[3].Method = "DELETE" }, "a state-only step must not call the API"},
	} {
		p := good()
		c.edit(p)
		err := checkPlan(p)
		var d *DamagedPlanError
		if !errors.As(err, &d) || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.wants)
		}
	}
}

func TestStateWrittenSinceAPlanMadeWithoutOne(t *testing.T) {
	p := &diff.Plan{State: diff.StateRef{Lineage: "l-then", Serial: 0}}
	if r := checkState(p, &state.State{Lineage: "l-now", Serial: 0}, "here"); r != nil {
		t.Errorf("no state then, none now: the plan is current, got %v", r)
	}
	r := checkState(p, &state.State{Lineage: "l-now", Serial: 2, Computes: map[string]*state.Compute{"a.b.c": {}}}, "here")
	if len(r) != 1 || !strings.Contains(r[0], "was written since the plan was made: it is at serial 2 now, and there was none when planned") {
		t.Errorf("got %v", r)
	}
	p.State.Serial = 3
	for _, c := range []struct {
		st   state.State
		want string
	}{
		{state.State{Lineage: "l-then", Serial: 3}, ""},
		{state.State{Lineage: "l-then", Serial: 4}, "it is at serial 4 now, was 3 when planned"},
		{state.State{Lineage: "l-then", Serial: 2}, "is older than the plan: it is at serial 2, but the plan was made at serial 3"},
		{state.State{Lineage: "other", Serial: 3}, "is another state (lineage other) than the one the plan was made against (lineage l-then)"},
	} {
		r := checkState(p, &c.st, "here")
		if (c.want == "") != (len(r) == 0) || (c.want != "" && !strings.Contains(r[0], c.want)) {
			t.Errorf("state %+v: got %v, want %q", c.st, r, c.want)
		}
	}
}
