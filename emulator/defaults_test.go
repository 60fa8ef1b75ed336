package emulator

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// projectDefaults reads default_endpoint_settings out of a project answer.
func projectDefaults(t *testing.T, r reply, list bool) *api.DefaultEndpointSettings {
	t.Helper()
	var one struct {
		Project struct {
			D *api.DefaultEndpointSettings `json:"default_endpoint_settings"`
		} `json:"project"`
	}
	var many struct {
		Projects []struct {
			D *api.DefaultEndpointSettings `json:"default_endpoint_settings"`
		} `json:"projects"`
	}
	if list {
		r.decode(t, &many)
		if len(many.Projects) != 1 {
			t.Fatalf("%d projects listed, want 1", len(many.Projects))
		}
		return many.Projects[0].D
	}
	r.decode(t, &one)
	return one.Project.D
}

func ptr[T any](v T) *T { return &v }

// A project keeps its default_endpoint_settings, shows them, and gives them to every
// compute created without values of its own; an update of them reaches the project
// and the computes made after it.
func TestProjectDefaultEndpointSettings(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	want := &api.DefaultEndpointSettings{PgSettings: map[string]string{"work_mem": "64MB"}, PgbouncerSettings: map[string]string{"default_pool_size": "20"},
		AutoscalingLimitMinCU: ptr(0.5), AutoscalingLimitMaxCU: ptr(2.0), SuspendTimeoutSeconds: ptr(int64(600))}
	r := s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": "shop", "default_endpoint_settings": want}}).want(t, 201)
	if got := projectDefaults(t, r, false); !reflect.DeepEqual(got, want) {
		t.Errorf("create answer: default_endpoint_settings %+v, want %+v", got, want)
	}
	var p api.ProjectCreated
	r.decode(t, &p)
	pid, main := p.Project.ID, p.Branch.ID
	s.settle()
	if got := projectDefaults(t, s.call("GET", "/projects/"+pid, nil).want(t, 200), false); !reflect.DeepEqual(got, want) {
		t.Errorf("GET project: %+v, want %+v", got, want)
	}
	if got := projectDefaults(t, s.call("GET", "/projects", nil).want(t, 200), true); !reflect.DeepEqual(got, want) {
		t.Errorf("list of projects: %+v, want %+v", got, want)
	}

	hasDefaults := func(what string, ep api.Endpoint, maxCU float64, pg string) {
		t.Helper()
		if ep.AutoscalingLimitMinCU != 0.5 || ep.AutoscalingLimitMaxCU != maxCU || ep.SuspendTimeoutSeconds != 600 ||
			ep.Settings.PgSettings["work_mem"] != pg || ep.Settings.PgbouncerSettings["default_pool_size"] != "20" {
			t.Errorf("%s: %g..%g CU, timeout %d, settings %+v; want 0.5..%g, 600, work_mem %s and the pool size", what,
				ep.AutoscalingLimitMinCU, ep.AutoscalingLimitMaxCU, ep.SuspendTimeoutSeconds, ep.Settings, maxCU, pg)
		}
	}
	hasDefaults("the project's first compute", p.Endpoints[0], 2, "64MB")
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201).decode(t, &ro)
	hasDefaults("a compute created without values", ro.Endpoint, 2, "64MB")
	s.settle()
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only", "autoscaling_limit_max_cu": 4,
		"settings": map[string]any{"pg_settings": map[string]string{"work_mem": "8MB"}}}).want(t, 201).decode(t, &ro)
	hasDefaults("a compute with its own max and pg_settings", ro.Endpoint, 4, "8MB")
	s.settle()
	var dev api.BranchCreated
	s.call("POST", "/projects/"+pid+"/branches", map[string]any{"branch": map[string]any{"name": "dev"},
		"endpoints": []map[string]any{{"type": "read_write"}}}).want(t, 201).decode(t, &dev)
	hasDefaults("a compute created with its branch", dev.Endpoints[0], 2, "64MB")
	s.settle()

	// An update replaces the defaults it names and keeps the others.
	r = s.call("PATCH", "/projects/"+pid, map[string]any{"project": map[string]any{"default_endpoint_settings": map[string]any{"autoscaling_limit_max_cu": 8}}}).want(t, 200)
	if got := projectDefaults(t, r, false); got == nil || got.AutoscalingLimitMaxCU == nil || *got.AutoscalingLimitMaxCU != 8 ||
		*got.AutoscalingLimitMinCU != 0.5 || *got.SuspendTimeoutSeconds != 600 || got.PgSettings["work_mem"] != "64MB" {
		t.Errorf("after PATCH max 8: %+v, want max 8 and the rest kept", got)
	}
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201).decode(t, &ro)
	hasDefaults("a compute created after the update", ro.Endpoint, 8, "64MB")
	if got := s.endpoint(pid, p.Endpoints[0].ID).AutoscalingLimitMaxCU; got != 2 {
		t.Errorf("the update changed an existing compute: max %g, want 2", got)
	}
	s.settle()

	// Defaults are held to the rules of a compute's attributes, on the project's plan.
	wantCode(t, s.call("PATCH", "/projects/"+pid, map[string]any{"project": map[string]any{"default_endpoint_settings": map[string]any{"autoscaling_limit_min_cu": 10}}}), 400, codeBadRequest)
	wantCode(t, s.call("PATCH", "/projects/"+pid, map[string]any{"project": map[string]any{"default_endpoint_settings": map[string]any{"suspend_timeout_seconds": 5}}}), 400, codeBadRequest)
	must(t, s.emu.SetProjectTier(pid, sizing.Free))
	ge := wantCode(t, s.call("PATCH", "/projects/"+pid, map[string]any{"project": map[string]any{"default_endpoint_settings": map[string]any{"autoscaling_limit_max_cu": 4}}}), 400, codeBadRequest)
	if !strings.Contains(ge.Message, "free plan") {
		t.Errorf("defaults above the free plan: %q", ge.Message)
	}
	ge = wantCode(t, s.call("POST", "/projects", map[string]any{"project": map[string]any{"default_endpoint_settings": map[string]any{"suspend_timeout_seconds": 30}}}), 400, codeBadRequest)
	if !strings.Contains(ge.Message, "default_endpoint_settings") {
		t.Errorf("a bad default should be named: %q", ge.Message)
	}
}

// The deprecated sizes of a project are its defaults under their old name.
func TestDeprecatedProjectSizesAreDefaults(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	var p api.ProjectCreated
	r := s.call("POST", "/projects", map[string]any{"project": map[string]any{"autoscaling_limit_min_cu": 0.25, "autoscaling_limit_max_cu": 4,
		"default_endpoint_settings": map[string]any{"autoscaling_limit_max_cu": 2}}}).want(t, 201)
	r.decode(t, &p)
	d := projectDefaults(t, r, false)
	if d == nil || *d.AutoscalingLimitMinCU != 0.25 || *d.AutoscalingLimitMaxCU != 2 {
		t.Errorf("defaults %+v, want min 0.25 from the deprecated field and max 2 from default_endpoint_settings", d)
	}
	if ep := p.Endpoints[0]; ep.AutoscalingLimitMinCU != 0.25 || ep.AutoscalingLimitMaxCU != 2 {
		t.Errorf("first compute %g..%g, want 0.25..2", ep.AutoscalingLimitMinCU, ep.AutoscalingLimitMaxCU)
	}
}

// A field the emulator does not model is refused with a 400 that names it, and the
// request changes nothing; null asks for nothing and is accepted.
func TestUnmodelledFieldsAreRefused(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("shop")
	pid, main, primary := p.Project.ID, p.Branch.ID, p.Endpoints[0].ID
	s.settle()
	prj := "/projects/" + pid
	for _, tc := range []struct {
		method, path string
		body         any
		field        string
	}{
		{"POST", prj + "/branches", map[string]any{"branch": map[string]any{"name": "tmp", "expires_at": "2026-03-09T09:00:00Z"}}, "branch.expires_at"},
		{"PATCH", prj + "/branches/" + main, map[string]any{"branch": map[string]any{"expires_at": "2026-03-09T09:00:00Z"}}, "branch.expires_at"},
		{"POST", prj + "/branches", map[string]any{"branch": map[string]any{"name": "pit", "parent_timestamp": "2026-03-01T09:00:00Z"}}, "branch.parent_timestamp"},
		{"POST", prj + "/branches", map[string]any{"endpoints": []map[string]any{{"type": "read_only"}, {"type": "read_only", "settings": map[string]any{"pg_settings": map[string]string{}, "autovacuum": "on"}}}}, "endpoints[1].settings.autovacuum"},
		{"POST", "/projects", map[string]any{"project": map[string]any{"name": "hipaa", "settings": map[string]any{"hipaa": true}}}, "project.settings"},
		{"PATCH", prj, map[string]any{"project": map[string]any{"name": "x", "settings": map[string]any{"allowed_ips": map[string]any{}}}}, "project.settings"},
		{"PATCH", prj + "/endpoints/" + primary, map[string]any{"endpoint": map[string]any{"suspend_timeout": 600}}, "endpoint.suspend_timeout"},
		{"POST", prj + "/endpoints", map[string]any{"endpoint": map[string]any{"branch_id": main, "type": "read_only"}, "wait": true}, "wait"},
		{"POST", prj + "/endpoints", map[string]any{"endpoint": map[string]any{"branch_id": main, "type": "read_only", "Type": "read_write"}}, "endpoint.Type"},
	} {
		ge := wantCode(t, s.call(tc.method, tc.path, tc.body), 400, codeUnsupportedField)
		if !strings.Contains(ge.Message, "sets "+tc.field+",") {
			t.Errorf("%s %s: message %q does not name %s", tc.method, tc.path, ge.Message, tc.field)
		}
	}
	var branches api.BranchesResponse
	s.call("GET", prj+"/branches", nil).want(t, 200).decode(t, &branches)
	var list api.EndpointsResponse
	s.call("GET", prj+"/endpoints", nil).want(t, 200).decode(t, &list)
	if len(branches.Branches) != 1 || len(list.Endpoints) != 1 || s.endpoint(pid, primary).SuspendTimeoutSeconds != 0 {
		t.Errorf("refused requests changed the project: %d branches, %d endpoints", len(branches.Branches), len(list.Endpoints))
	}
	s.call("PATCH", prj+"/branches/"+main, map[string]any{"branch": map[string]any{"name": "trunk", "expires_at": nil}}).want(t, 200)
}

func TestUnknownFieldWalksTheBodyType(t *testing.T) {
	for _, tc := range []struct {
		body string
		want string
	}{
		{`{"endpoint":{"branch_id":"br-1","settings":{"pg_settings":{"any":"key"},"preload_libraries":{"use_defaults":true}}}}`, ""},
		{`{"endpoint":{"settings":{"preload_libraries":{"enabled":["x"]}}}}`, "endpoint.settings.preload_libraries.enabled"},
		{`{"endpoint":{"branch_id":"br-1","extra":null}}`, ""},
		{`{"endpoint":"not an object"}`, ""},
		{`{"zeta":1,"alpha":2}`, "alpha"},
	} {
		var v any
		must(t, json.Unmarshal([]byte(tc.body), &v))
		if got := unknownField(v, reflect.TypeFor[*endpointBody](), ""); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.body, got, tc.want)
		}
	}
}
