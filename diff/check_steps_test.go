package diff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neonform/neonform/state"
)

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
			},
		}
	}
	if err := checkSteps(good()); err != nil {
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
	} {
		p := good()
		c.edit(p)
		if err := checkSteps(p); err == nil || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.wants)
		}
	}
}
