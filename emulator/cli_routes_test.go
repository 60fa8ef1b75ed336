package emulator

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

// GET /auth says who the credentials act for: a personal key its user, an
// organization key its organization.
func TestAuthDetails(t *testing.T) {
	s := newPeople(t, Options{})
	var got authDetails
	s.callAs(aliceKey, "GET", "/auth", nil).want(t, 200).decode(t, &got)
	if got != (authDetails{AccountID: alice, AuthMethod: "api_key_user"}) {
		t.Errorf("personal key: %+v", got)
	}
	_, orgKey := s.newKey(aliceKey, "/organizations/org-acme/api_keys", map[string]any{"key_name": "deploy"})
	s.callAs(orgKey, "GET", "/auth", nil).want(t, 200).decode(t, &got)
	if got != (authDetails{AccountID: "org-acme", AuthMethod: "api_key_org"}) {
		t.Errorf("organization key: %+v", got)
	}
}

// set_as_default moves the default designation: the branch is the default after it,
// the previous default is not, and the project's operations hold it like any change.
func TestSetDefaultBranch(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	pid, main := p.Project.ID, p.Branch.ID
	s.settle()
	var dev api.BranchCreated
	s.call("POST", "/projects/"+pid+"/branches", map[string]any{"branch": map[string]any{"name": "dev"}}).want(t, 201).decode(t, &dev)
	wantCode(t, s.call("POST", "/projects/"+pid+"/branches/"+dev.Branch.ID+"/set_as_default", nil), 423, codeLocked)
	s.settle()

	var out api.BranchOperations
	s.call("POST", "/projects/"+pid+"/branches/"+dev.Branch.ID+"/set_as_default", nil).want(t, 200).decode(t, &out)
	if !out.Branch.Default || out.Branch.ID != dev.Branch.ID || out.Operations == nil || len(out.Operations) != 0 {
		t.Errorf("answer %+v, want the branch, default, and no operations", out)
	}
	var b api.BranchResponse
	s.call("GET", "/projects/"+pid+"/branches/"+main, nil).want(t, 200).decode(t, &b)
	if b.Branch.Default {
		t.Errorf("the previous default is still default")
	}
	// The new default cannot be deleted; the old one now can be.
	wantCode(t, s.call("DELETE", "/projects/"+pid+"/branches/"+dev.Branch.ID, nil), 400, codeBadRequest)
	wantCode(t, s.call("POST", "/projects/"+pid+"/branches/br-nope-a5000000/set_as_default", nil), 404, codeBranchNotFound)
}

// A path the emulator does not serve answers as the service does for a route that
// does not exist: 404, an empty code, "this route does not exist".
func TestUnknownRouteAnswersInTheServicesWords(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	for _, path := range []string{"/projects/" + p.Project.ID + "/branches/" + p.Branch.ID + "/buckets", "/projects/" + p.Project.ID + "/functions", "/nothing"} {
		ge := wantCode(t, s.call("GET", path, nil), 404, "")
		if ge.Message != "this route does not exist" {
			t.Errorf("%s: message %q", path, ge.Message)
		}
	}
	// A path it serves, with another method, is still 405 with Allow.
	r := s.call("PUT", "/projects/"+p.Project.ID, nil)
	r.want(t, 405)
	if !strings.Contains(r.header.Get("Allow"), "GET") {
		t.Errorf("405 without Allow: %v", r.header)
	}
}
