package emulator

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

// orgWorld is a world with each kind of account: Ada has a personal account (on
// personalTier) and is admin of the organization; Grace belongs to the organization
// only; Bob is in no organization. The organization is on orgTier and has an
// organization key and a project-scoped key for its project.
const (
	adaKey, graceKey, bobsKey = "napi_ada_personal", "napi_grace_orgonly", "napi_bob_personal"
	orgKey, projKey           = "napi_org_key", "napi_project_key"
	theOrg, otherOrg          = "org-morning-bread-81040908", "org-quiet-field-12345678"
	orgProject, adaProject    = "hidden-river-50598307", "dark-sun-46453911"
)

func orgWorld(t *testing.T, personalTier, orgTier string, opts Options) *service {
	t.Helper()
	doc := fmt.Sprintf(`{
  "format_version": 1,
  "users": [
    {"id": "u-ada", "name": "Ada", "tier": %q},
    {"id": "u-grace", "name": "Grace", "org_only": true},
    {"id": "u-bob", "name": "Bob"}
  ],
  "organizations": [
    {"id": %q, "name": "Analytical Engines", "tier": %q,
     "members": [{"user_id": "u-ada", "role": "admin"}, {"user_id": "u-grace", "role": "member"}]},
    {"id": %q, "name": "Elsewhere", "members": [{"user_id": "u-bob", "role": "admin"}]}
  ],
  "api_keys": [
    {"kind": "personal", "user_id": "u-ada", "secret": %q},
    {"kind": "personal", "user_id": "u-grace", "secret": %q},
    {"kind": "personal", "user_id": "u-bob", "secret": %q},
    {"kind": "organization", "org_id": %q, "secret": %q},
    {"kind": "project", "org_id": %q, "project_id": %q, "secret": %q}
  ],
  "projects": [
    {"id": %q, "org_id": %q, "owner_id": "u-ada", "branches": [{"id": "br-main-a5000001", "name": "main", "default": true}],
     "endpoints": [{"id": "ep-org-main-a5000001", "branch_id": "br-main-a5000001", "type": "read_write"}]},
    {"id": %q, "owner_id": "u-ada", "branches": [{"id": "br-main-a5000002", "name": "main", "default": true}],
     "endpoints": [{"id": "ep-ada-main-a5000002", "branch_id": "br-main-a5000002", "type": "read_write"}]}
  ]
}`, personalTier, theOrg, orgTier, otherOrg, adaKey, graceKey, bobsKey, theOrg, orgKey, theOrg, orgProject, projKey,
		orgProject, theOrg, adaProject)
	file := filepath.Join(t.TempDir(), "world.json")
	must(t, os.WriteFile(file, []byte(doc), 0o600))
	opts.DataFile, opts.APIKey = file, adaKey
	return newService(t, opts)
}

func projectIDs(t *testing.T, r reply) []string {
	t.Helper()
	var out api.ProjectsResponse
	r.want(t, 200).decode(t, &out)
	var ids []string
	for _, p := range out.Projects {
		ids = append(ids, p.ID)
	}
	return ids
}

// A user who belongs to organizations only must name one to list or create
// projects, in the service's words; /users/me shows no billing account.
func TestOrgOnlyUserMustNameTheOrganization(t *testing.T) {
	s := orgWorld(t, "scale", "scale", Options{})
	const msg = "org_id is required, you can find it on your organization settings page"
	for _, r := range []reply{
		s.callAs(graceKey, "GET", "/projects", nil),
		s.callAs(graceKey, "POST", "/projects", map[string]any{"project": map[string]any{"name": "x"}}),
	} {
		if ge := wantCode(t, r, 400, codeBadRequest); ge.Message != msg {
			t.Errorf("message %q, want the service's %q", ge.Message, msg)
		}
	}
	if got := projectIDs(t, s.callAs(graceKey, "GET", "/projects?org_id="+theOrg, nil)); !slices.Equal(got, []string{orgProject}) {
		t.Errorf("Grace's list with org_id: %v", got)
	}
	var created api.ProjectCreated
	s.callAs(graceKey, "POST", "/projects", map[string]any{"project": map[string]any{"name": "g", "org_id": theOrg}}).want(t, 201).decode(t, &created)
	if created.Project.OrgID != theOrg {
		t.Errorf("Grace's project is in %q, want %s", created.Project.OrgID, theOrg)
	}

	var grace, ada api.CurrentUserInfo
	s.callAs(graceKey, "GET", "/users/me", nil).want(t, 200).decode(t, &grace)
	s.callAs(adaKey, "GET", "/users/me", nil).want(t, 200).decode(t, &ada)
	if grace.BillingAccount != nil || ada.BillingAccount == nil {
		t.Errorf("billing accounts: Grace %+v (want none), Ada %+v (want one)", grace.BillingAccount, ada.BillingAccount)
	}

	// A user with a personal account lists without org_id (personal projects and
	// those of the organizations), and one organization's with it; an organization
	// the user is not in is not found.
	if got := projectIDs(t, s.callAs(adaKey, "GET", "/projects", nil)); !slices.Contains(got, adaProject) || !slices.Contains(got, orgProject) {
		t.Errorf("Ada's list: %v", got)
	}
	if got := projectIDs(t, s.callAs(adaKey, "GET", "/projects?org_id="+theOrg, nil)); slices.Contains(got, adaProject) || !slices.Contains(got, orgProject) {
		t.Errorf("Ada's list of %s: %v", theOrg, got)
	}
	wantCode(t, s.callAs(bobsKey, "GET", "/projects?org_id="+theOrg, nil), 404, codeNotFound)

	// An organization key lists its organization's projects without org_id, and no
	// other organization's; a project-scoped key lists none.
	if got := projectIDs(t, s.callAs(orgKey, "GET", "/projects", nil)); slices.Contains(got, adaProject) || !slices.Contains(got, orgProject) {
		t.Errorf("the organization key's list: %v", got)
	}
	wantCode(t, s.callAs(orgKey, "GET", "/projects?org_id="+otherOrg, nil), 403, codeForbidden)
	wantCode(t, s.callAs(projKey, "GET", "/projects", nil), 403, codeForbidden)
}

// GET /organizations/{org_id} answers a member's personal key and the
// organization's own keys, and nobody else.
func TestGetOrganization(t *testing.T) {
	s := orgWorld(t, "scale", "launch", Options{})
	for _, key := range []string{adaKey, graceKey, orgKey, projKey} {
		var o api.Organization
		s.callAs(key, "GET", "/organizations/"+theOrg, nil).want(t, 200).decode(t, &o)
		if o.ID != theOrg || o.Name != "Analytical Engines" || o.Plan != "launch_v3" {
			t.Errorf("%s: %+v", key, o)
		}
	}
	wantCode(t, s.callAs(bobsKey, "GET", "/organizations/"+theOrg, nil), 404, codeNotFound)
	wantCode(t, s.callAs(orgKey, "GET", "/organizations/"+otherOrg, nil), 404, codeNotFound)
}

// GET /projects/{id}/branches/count is the count, not a branch named "count".
func TestCountBranches(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("shop")
	for _, name := range []string{"dev", "dev-2", "feature"} {
		s.call("POST", "/projects/"+p.Project.ID+"/branches", map[string]any{"branch": map[string]any{"name": name}}).want(t, 201)
	}
	for q, want := range map[string]int{"": 4, "?search=dev": 2, "?search=none": 0} {
		var got branchesCount
		s.call("GET", "/projects/"+p.Project.ID+"/branches/count"+q, nil).want(t, 200).decode(t, &got)
		if got.Count != want {
			t.Errorf("count%s = %d, want %d", q, got.Count, want)
		}
	}
	s.call("DELETE", "/projects/"+p.Project.ID+"/branches/count", nil).want(t, 405)
}

// Each plan's suspend rule, from the plans page: Free only the default 5 minutes,
// Launch 5 minutes or never, Scale anything in the service's range.
func TestPlanSuspendRules(t *testing.T) {
	for _, tc := range []struct {
		tier          string
		allowed, refd []int64
	}{
		{"free", []int64{0, 300}, []int64{60, 600, -1}},
		{"launch", []int64{0, 300, -1}, []int64{60, 600}},
		{"scale", []int64{0, 60, 600, -1}, nil},
		{"paid", []int64{60, -1}, nil},
	} {
		t.Run(tc.tier, func(t *testing.T) {
			s := orgWorld(t, tc.tier, tc.tier, Options{OpDelay: -1})
			for _, secs := range tc.allowed {
				s.patchEndpoint(adaProject, "ep-ada-main-a5000002", map[string]any{"suspend_timeout_seconds": secs}).want(t, 200)
			}
			for _, secs := range tc.refd {
				ge := wantCode(t, s.patchEndpoint(adaProject, "ep-ada-main-a5000002", map[string]any{"suspend_timeout_seconds": secs}), 400, codeBadRequest)
				if !strings.Contains(ge.Message, "plan") {
					t.Errorf("%d s: %q does not name the plan", secs, ge.Message)
				}
				// Creating a compute with it is refused the same way, and so is a
				// project default.
				wantCode(t, s.createEndpoint(adaProject, map[string]any{"branch_id": "br-main-a5000002", "type": "read_only", "suspend_timeout_seconds": secs}), 400, codeBadRequest)
				wantCode(t, s.call("PATCH", "/projects/"+adaProject, map[string]any{"project": map[string]any{"default_endpoint_settings": map[string]any{"suspend_timeout_seconds": secs}}}), 400, codeBadRequest)
			}
		})
	}
}

// /users/me reports the plan's limits, and the emulator enforces them: a Free
// project has at most 10 branches, a Free account at most 100 projects.
func TestPlanCountsMatchUsersMe(t *testing.T) {
	s := orgWorld(t, "free", "launch", Options{OpDelay: -1})
	var me api.CurrentUserInfo
	s.callAs(adaKey, "GET", "/users/me", nil).want(t, 200).decode(t, &me)
	if me.ProjectsLimit != 100 || me.BranchesLimit != 10 || me.MaxAutoscalingLimit != 2 || me.Plan != "free_v3" {
		t.Fatalf("Free's /users/me: projects %d, branches %d, max %g CU, plan %s", me.ProjectsLimit, me.BranchesLimit, me.MaxAutoscalingLimit, me.Plan)
	}
	for i := 1; i < int(me.BranchesLimit); i++ { // the default branch is the first
		s.call("POST", "/projects/"+adaProject+"/branches", map[string]any{"branch": map[string]any{"name": fmt.Sprintf("b%d", i)}}).want(t, 201)
	}
	wantCode(t, s.call("POST", "/projects/"+adaProject+"/branches", nil), 422, codeBranchesLimit)
	// The organization's project is on the organization's plan (Launch: 5,000).
	for i := 0; i < int(me.BranchesLimit); i++ {
		s.call("POST", "/projects/"+orgProject+"/branches", nil).want(t, 201)
	}

	// Ada has one personal project: 99 more, then the limit. Organization
	// projects do not count against it.
	for i := 1; i < int(me.ProjectsLimit); i++ {
		s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": fmt.Sprintf("p%d", i)}}).want(t, 201)
	}
	ge := wantCode(t, s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": "one too many"}}), 422, codeProjectsLimit)
	if !strings.Contains(ge.Message, "Free") {
		t.Errorf("%q does not name the plan", ge.Message)
	}
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": "in the org", "org_id": theOrg}}).want(t, 201)
}

// With availability checks at every change, a change to a project with an idle
// compute meets a running check_availability operation (423); reads never do, and
// without checks the same change goes through.
func TestAvailabilityChecksOnIdleComputes(t *testing.T) {
	for _, rate := range []float64{0, 1} {
		s := orgWorld(t, "scale", "scale", Options{AvailabilityChecks: rate})
		s.clock.Advance(time.Hour) // the primary scales to zero
		if ep := s.endpoint(adaProject, "ep-ada-main-a5000002"); ep.CurrentState != api.EndpointStateIdle {
			t.Fatalf("primary %s, want idle", ep.CurrentState)
		}
		r := s.patchEndpoint(adaProject, "ep-ada-main-a5000002", map[string]any{"name": "x"})
		var ops api.OperationsResponse
		s.call("GET", "/projects/"+adaProject+"/operations", nil).want(t, 200).decode(t, &ops)
		checks := 0
		for _, op := range ops.Operations {
			if op.Action == api.ActionCheckAvailability && op.EndpointID == "ep-ada-main-a5000002" {
				checks++
			}
		}
		switch {
		case rate == 0 && (r.status != 200 || checks != 0):
			t.Errorf("no checks: PATCH %d, %d checks", r.status, checks)
		case rate == 1 && (r.status != 423 || checks != 1):
			t.Errorf("checks at every change: PATCH %d, %d checks; want 423 and one check", r.status, checks)
		}
	}
}
