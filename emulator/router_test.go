package emulator

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

// A fixed segment wins over a parameter at the same place, whatever order the routes
// were added in, and a less specific template never answers for the fixed path.
func TestFixedPathsWinOverTemplates(t *testing.T) {
	ok := func(*call) (int, any, error) { return 200, nil, nil }
	rt := newRouter()
	rt.add("GET", "/projects/{project_id}", ok)
	rt.add("DELETE", "/projects/{project_id}", ok)
	rt.add("GET", "/projects/shared", ok)
	rt.add("GET", "/projects/{project_id}/branches/{branch_id}", ok)
	rt.add("GET", "/projects/{project_id}/branches/main", ok)

	for _, tc := range []struct {
		method, path, template string
		allowed                string
	}{
		{"GET", "/projects/shared", "/projects/shared", ""},
		{"GET", "/projects/dark-sun-46453911", "/projects/{project_id}", ""},
		{"DELETE", "/projects/shared", "", "GET"},
		{"GET", "/projects/p-1/branches/main", "/projects/{project_id}/branches/main", ""},
		{"GET", "/projects/p-1/branches/br-1", "/projects/{project_id}/branches/{branch_id}", ""},
	} {
		var p pathParams
		r, allowed := rt.match(tc.method, tc.path, &p)
		got := ""
		if r != nil {
			got = r.template
		}
		if got != tc.template || strings.Join(allowed, ",") != tc.allowed {
			t.Errorf("%s %s: route %q allowed %v, want %q allowed %q", tc.method, tc.path, got, allowed, tc.template, tc.allowed)
		}
	}
}

// GET /projects/shared is the (empty) list of projects shared with the account, in
// the documented shape, not project "shared" not found: neonctl projects list calls it.
func TestSharedProjectsIsAnEmptyList(t *testing.T) {
	s := newService(t, Options{})
	s.newProject("shop")
	r := s.call("GET", "/projects/shared", nil).want(t, 200)
	var out struct {
		Projects []api.ProjectListItem `json:"projects"`
	}
	r.decode(t, &out)
	if out.Projects == nil || len(out.Projects) != 0 {
		t.Errorf("shared projects %s, want an empty list", r.body)
	}
	s.call("GET", "/projects/shared?limit=0", nil).want(t, 400)
	s.call("DELETE", "/projects/shared", nil).want(t, 405)
	if s.validated["GET /projects/shared 200"] != 1 || s.validated["GET /projects/shared 400"] != 1 {
		t.Errorf("the answers were not checked against the description: %v", s.validated)
	}
	if n := s.emu.Stats().Requests["GET /projects/shared"]; n != 2 {
		t.Errorf("stats count %d GET /projects/shared, want 2", n)
	}
}
