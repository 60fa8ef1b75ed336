package emulator

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

// What the service's CLI needs for its everyday commands, so that it can be pointed
// at the emulator as at the service: the
// user and their organizations, and a branch's roles, databases and connection URIs.

// projectCreatedAnswer is the answer of POST /projects with its typed roles, databases
// and connection URIs (api.ProjectCreated leaves them untyped).
type projectCreatedAnswer struct {
	Project        api.Project             `json:"project"`
	Branch         api.Branch              `json:"branch"`
	Endpoints      []api.Endpoint          `json:"endpoints"`
	ConnectionURIs []api.ConnectionDetails `json:"connection_uris"`
	Roles          []api.Role              `json:"roles"`
	Databases      []api.Database          `json:"databases"`
}

const orgSeed = `{"format_version": 1,
 "users": [{"id": "5d7f8c1e-3a4b-4c2d-9e8f-0a1b2c3d4e5f", "name": "Ada", "email": "ada@example.com"},
           {"id": "6e8a9d2f-4b5c-4d3e-8f90-1b2c3d4e5f60", "name": "Grace", "email": "grace@example.com", "tier": "free"}],
 "organizations": [
   {"id": "org-analytical-engines-1", "name": "Analytical Engines", "created_at": "2026-01-01T00:00:00Z",
    "members": [{"user_id": "5d7f8c1e-3a4b-4c2d-9e8f-0a1b2c3d4e5f", "role": "admin"}, {"user_id": "6e8a9d2f-4b5c-4d3e-8f90-1b2c3d4e5f60", "role": "member"}]},
   {"id": "org-difference-engines-2", "name": "Difference Engines", "tier": "free",
    "members": [{"user_id": "5d7f8c1e-3a4b-4c2d-9e8f-0a1b2c3d4e5f", "role": "member"}]}],
 "api_keys": [
   {"id": 1, "kind": "personal", "user_id": "6e8a9d2f-4b5c-4d3e-8f90-1b2c3d4e5f60", "secret": "napi_grace"},
   {"id": 2, "kind": "organization", "org_id": "org-analytical-engines-1", "secret": "napi_org"}]}`

func TestCurrentUserAndOrganizations(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	must(t, os.WriteFile(file, []byte(orgSeed), 0o600))
	s := newService(t, Options{DataFile: file})

	var me api.CurrentUserInfo
	s.call("GET", "/users/me", nil).want(t, 200).decode(t, &me)
	if me.ID != "5d7f8c1e-3a4b-4c2d-9e8f-0a1b2c3d4e5f" || me.Email != "ada@example.com" || me.Name != "Ada" || me.Plan != "scale_v3" || me.MaxAutoscalingLimit != 16 {
		t.Errorf("/users/me with Ada's key: %+v", me)
	}
	s.callAs("napi_grace", "GET", "/users/me", nil).want(t, 200).decode(t, &me)
	if me.Email != "grace@example.com" || me.Plan != "free_v3" || me.MaxAutoscalingLimit != 2 {
		t.Errorf("/users/me with Grace's key (free plan): %+v", me)
	}

	var orgs api.OrganizationsResponse
	s.call("GET", "/users/me/organizations", nil).want(t, 200).decode(t, &orgs)
	if len(orgs.Organizations) != 2 || orgs.Organizations[0].ID != "org-analytical-engines-1" || orgs.Organizations[0].Name != "Analytical Engines" ||
		orgs.Organizations[1].Plan != "free_v3" || orgs.Organizations[0].ManagedBy != "console" {
		t.Errorf("Ada's organizations: %+v", orgs.Organizations)
	}
	s.callAs("napi_grace", "GET", "/users/me/organizations", nil).want(t, 200).decode(t, &orgs)
	if len(orgs.Organizations) != 1 {
		t.Errorf("Grace's organizations: %+v, want the one she is a member of", orgs.Organizations)
	}

	// An organization key has no user: the service's 404, in the words its CLI looks for.
	for _, path := range []string{"/users/me", "/users/me/organizations"} {
		ge := wantCode(t, s.callAs("napi_org", "GET", path, nil), 404, codeNotFound)
		if !strings.Contains(ge.Message, "not allowed for organization API keys") {
			t.Errorf("GET %s with an organization key: %q", path, ge.Message)
		}
	}
	s.callAs("", "GET", "/users/me", nil).want(t, 401)
}

func TestProjectComesWithRoleDatabaseAndConnectionURI(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	var p projectCreatedAnswer
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": "shop"}}).want(t, 201).decode(t, &p)
	pid, main, primary := p.Project.ID, p.Branch.ID, p.Endpoints[0]
	if len(p.Roles) != 1 || p.Roles[0].Name != "neondb_owner" || p.Roles[0].BranchID != main || !regexp.MustCompile(`^npg_[A-Za-z0-9]{12}$`).MatchString(p.Roles[0].Password) {
		t.Fatalf("roles of a new project: %+v, want neondb_owner with a password", p.Roles)
	}
	password := p.Roles[0].Password
	if len(p.Databases) != 1 || p.Databases[0].Name != "neondb" || p.Databases[0].OwnerName != "neondb_owner" || p.Databases[0].ID == 0 {
		t.Errorf("databases of a new project: %+v, want neondb owned by neondb_owner", p.Databases)
	}
	wantURI := "postgresql://neondb_owner:" + password + "@" + primary.Host + "/neondb?sslmode=require&channel_binding=require"
	pooler := strings.Replace(primary.Host, primary.ID, primary.ID+"-pooler", 1)
	if len(p.ConnectionURIs) != 1 || p.ConnectionURIs[0].ConnectionURI != wantURI ||
		p.ConnectionURIs[0].ConnectionParameters != (api.ConnectionParameters{Database: "neondb", Password: password, Role: "neondb_owner", Host: primary.Host, PoolerHost: pooler}) {
		t.Errorf("connection URIs %+v, want %s", p.ConnectionURIs, wantURI)
	}
	s.settle()

	br := "/projects/" + pid + "/branches/" + main
	var roles api.RolesResponse
	s.call("GET", br+"/roles", nil).want(t, 200).decode(t, &roles)
	if len(roles.Roles) != 1 || roles.Roles[0].Name != "neondb_owner" || roles.Roles[0].Password != "" {
		t.Errorf("role list %+v, want neondb_owner without its password", roles.Roles)
	}
	s.call("GET", br+"/roles/neondb_owner", nil).want(t, 200)
	var pw api.RolePasswordResponse
	s.call("GET", br+"/roles/neondb_owner/reveal_password", nil).want(t, 200).decode(t, &pw)
	if pw.Password != password {
		t.Errorf("revealed password %q, want the one given at creation", pw.Password)
	}
	wantCode(t, s.call("GET", br+"/roles/nobody", nil), 404, codeRoleNotFound)
	wantCode(t, s.call("GET", br+"/roles/nobody/reveal_password", nil), 404, codeRoleNotFound)
	var dbs api.DatabasesResponse
	s.call("GET", br+"/databases", nil).want(t, 200).decode(t, &dbs)
	if len(dbs.Databases) != 1 || dbs.Databases[0] != p.Databases[0] {
		t.Errorf("database list %+v, want %+v", dbs.Databases, p.Databases)
	}
	s.call("GET", br+"/databases/neondb", nil).want(t, 200)
	wantCode(t, s.call("GET", br+"/databases/nodb", nil), 404, codeDatabaseNotFound)
	wantCode(t, s.call("GET", "/projects/"+pid+"/branches/br-nope-a5000000/roles", nil), 404, codeBranchNotFound)
	wantCode(t, s.call("GET", "/projects/"+pid+"/branches/br-nope-a5000000/databases", nil), 404, codeBranchNotFound)

	// Read-only: what would create, change or delete them is refused and changes nothing.
	for _, tc := range []struct{ method, path string }{
		{"POST", br + "/roles"}, {"DELETE", br + "/roles/neondb_owner"},
		{"POST", br + "/databases"}, {"PATCH", br + "/databases/neondb"}, {"DELETE", br + "/databases/neondb"},
	} {
		r := s.call(tc.method, tc.path, map[string]any{"role": map[string]any{"name": "x"}, "database": map[string]any{"name": "x", "owner_name": "x"}})
		ge := wantCode(t, r, 405, codeMethodNotAllowed)
		if r.header.Get("Allow") != "GET" || !strings.Contains(ge.Message, "read-only") {
			t.Errorf("%s %s: Allow %q, message %q", tc.method, tc.path, r.header.Get("Allow"), ge.Message)
		}
	}
	s.call("GET", br+"/roles", nil).want(t, 200).decode(t, &roles)
	if len(roles.Roles) != 1 {
		t.Errorf("a refused call changed the roles: %+v", roles.Roles)
	}

	// The connection URI on request: through the read_write compute by default, its
	// pooler, or a read_only compute of the branch.
	uri := func(query string) string {
		t.Helper()
		var out api.ConnectionURIResponse
		s.call("GET", "/projects/"+pid+"/connection_uri?"+query, nil).want(t, 200).decode(t, &out)
		return out.URI
	}
	if got := uri("database_name=neondb&role_name=neondb_owner"); got != wantURI {
		t.Errorf("connection_uri %s, want %s", got, wantURI)
	}
	if got := uri("branch_id=" + main + "&database_name=neondb&role_name=neondb_owner&pooled=true"); got != strings.Replace(wantURI, primary.Host, pooler, 1) {
		t.Errorf("pooled connection_uri %s, want the pooler host %s", got, pooler)
	}
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201).decode(t, &ro)
	if got := uri("endpoint_id=" + ro.Endpoint.ID + "&database_name=neondb&role_name=neondb_owner"); !strings.Contains(got, "@"+ro.Endpoint.Host+"/") {
		t.Errorf("connection_uri through a replica: %s, want host %s", got, ro.Endpoint.Host)
	}
	parsed, err := url.Parse(wantURI)
	must(t, err)
	if pw, _ := parsed.User.Password(); pw != password || parsed.Query().Get("sslmode") != "require" || parsed.Query().Get("channel_binding") != "require" {
		t.Errorf("%s does not parse back to the password, sslmode=require and channel_binding=require", wantURI)
	}
	for _, tc := range []struct {
		query  string
		status int
		code   string
	}{
		{"role_name=neondb_owner", 400, codeBadRequest},
		{"database_name=neondb&role_name=neondb_owner&pooled=maybe", 400, codeBadRequest},
		{"database_name=neondb&role_name=nobody", 404, codeRoleNotFound},
		{"database_name=nodb&role_name=neondb_owner", 404, codeDatabaseNotFound},
		{"branch_id=br-nope-a5000000&database_name=neondb&role_name=neondb_owner", 404, codeBranchNotFound},
		{"endpoint_id=ep-nope-a5000000&database_name=neondb&role_name=neondb_owner", 404, codeEndpointNotFound},
	} {
		wantCode(t, s.call("GET", "/projects/"+pid+"/connection_uri?"+tc.query, nil), tc.status, tc.code)
	}
	s.settle()

	// A branch gets copies of its parent's roles (same password) and databases, and
	// a connection URI when it is made with its read_write compute.
	var child struct {
		Branch         api.Branch              `json:"branch"`
		Endpoints      []api.Endpoint          `json:"endpoints"`
		Roles          []api.Role              `json:"roles"`
		Databases      []api.Database          `json:"databases"`
		ConnectionURIs []api.ConnectionDetails `json:"connection_uris"`
	}
	s.call("POST", "/projects/"+pid+"/branches", map[string]any{"branch": map[string]any{"name": "dev"}, "endpoints": []map[string]any{{"type": "read_write"}}}).
		want(t, 201).decode(t, &child)
	if len(child.Roles) != 1 || child.Roles[0].BranchID != child.Branch.ID || len(child.Databases) != 1 || child.Databases[0].Name != "neondb" {
		t.Errorf("a new branch's roles %+v and databases %+v, want copies of its parent's", child.Roles, child.Databases)
	}
	if len(child.ConnectionURIs) != 1 || child.ConnectionURIs[0].ConnectionURI != "postgresql://neondb_owner:"+password+"@"+child.Endpoints[0].Host+"/neondb?sslmode=require&channel_binding=require" {
		t.Errorf("a new branch's connection URIs: %+v", child.ConnectionURIs)
	}
	s.settle()
	bare := s.newBranch(pid, "bare")
	ge := wantCode(t, s.call("GET", "/projects/"+pid+"/connection_uri?branch_id="+bare+"&database_name=neondb&role_name=neondb_owner", nil), 404, codeEndpointNotFound)
	if !strings.Contains(ge.Message, "no read_write endpoint") {
		t.Errorf("connection_uri of a branch without a compute: %q", ge.Message)
	}
}

// The names asked for at creation are the default branch's role and database.
func TestProjectRoleAndDatabaseNames(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	var p projectCreatedAnswer
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"branch": map[string]any{"database_name": "shop"}}}).want(t, 201).decode(t, &p)
	if p.Roles[0].Name != "shop_owner" || p.Databases[0].Name != "shop" || p.Databases[0].OwnerName != "shop_owner" {
		t.Errorf("database_name shop: role %s, database %s owned by %s; want shop_owner, shop", p.Roles[0].Name, p.Databases[0].Name, p.Databases[0].OwnerName)
	}
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"branch": map[string]any{"role_name": "app", "database_name": "shop"}}}).want(t, 201).decode(t, &p)
	if p.Roles[0].Name != "app" || p.Databases[0].OwnerName != "app" {
		t.Errorf("role_name app: %+v %+v", p.Roles, p.Databases)
	}
	wantCode(t, s.call("POST", "/projects", map[string]any{"project": map[string]any{"branch": map[string]any{"role_name": ""}}}), 400, codeBadRequest)
	wantCode(t, s.call("POST", "/projects", map[string]any{"project": map[string]any{"branch": map[string]any{"database_name": strings.Repeat("d", 64)}}}), 400, codeBadRequest)
}

// A world file keeps roles and databases; a seed may leave out a role's password (one
// is made and kept) and is refused when a database's owner is not a role.
func TestRolesAndDatabasesInTheWorldFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "world.json")
	must(t, os.WriteFile(file, []byte(`{"format_version": 1, "users": [{"id": "u1"}], "projects": [{"id": "p-1",
	  "branches": [{"id": "br-1", "default": true, "roles": [{"name": "app"}], "databases": [{"name": "shop", "owner_name": "app"}]}]}]}`), 0o600))
	s := newService(t, Options{DataFile: file})
	var pw api.RolePasswordResponse
	s.call("GET", "/projects/p-1/branches/br-1/roles/app/reveal_password", nil).want(t, 200).decode(t, &pw)
	must(t, s.emu.Close())
	again := newService(t, Options{DataFile: file, APIKey: s.key})
	var pw2 api.RolePasswordResponse
	again.call("GET", "/projects/p-1/branches/br-1/roles/app/reveal_password", nil).want(t, 200).decode(t, &pw2)
	if pw.Password == "" || pw2.Password != pw.Password {
		t.Errorf("password %q, after a restart %q: want one made once and kept", pw.Password, pw2.Password)
	}

	bad := filepath.Join(dir, "bad.json")
	must(t, os.WriteFile(bad, []byte(`{"format_version": 1, "users": [{"id": "u1"}], "projects": [{"id": "p-1",
	  "branches": [{"id": "br-1", "default": true, "databases": [{"name": "shop", "owner_name": "app"}]}]}]}`), 0o600))
	_, err := New(Options{DataFile: bad})
	if err == nil || !strings.Contains(err.Error(), `branch br-1: database shop: owner_name "app" is not a role of the branch`) {
		t.Errorf("a database without its owner: %v", err)
	}
}

// Every operation of the sandbox description answers through the harness's check: the
// reads with a success and an error, the refused writes with an error.
func TestEverySandboxOperationValidates(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	var p projectCreatedAnswer
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": "shop"}}).want(t, 201).decode(t, &p)
	pid, br := p.Project.ID, "/projects/"+p.Project.ID+"/branches/"+p.Branch.ID
	s.call("GET", "/users/me", nil).want(t, 200)
	s.callAs("", "GET", "/users/me", nil).want(t, 401)
	s.call("GET", "/users/me/organizations", nil).want(t, 200)
	s.callAs("", "GET", "/users/me/organizations", nil).want(t, 401)
	s.call("GET", "/auth", nil).want(t, 200)
	s.callAs("", "GET", "/auth", nil).want(t, 401)
	s.call("GET", "/projects/shared", nil).want(t, 200)
	s.call("GET", "/projects/shared?limit=500", nil).want(t, 400)
	s.call("GET", "/projects/"+pid+"/connection_uri?database_name=neondb&role_name=neondb_owner", nil).want(t, 200)
	s.call("GET", "/projects/"+pid+"/connection_uri", nil).want(t, 400)
	for _, path := range []string{br + "/roles", br + "/roles/neondb_owner", br + "/roles/neondb_owner/reveal_password", br + "/databases", br + "/databases/neondb"} {
		s.call("GET", path, nil).want(t, 200)
		s.call("GET", strings.Replace(path, p.Branch.ID, "br-nope-a5000000", 1), nil).want(t, 404)
	}
	var orgs api.OrganizationsResponse
	s.call("GET", "/users/me/organizations", nil).want(t, 200).decode(t, &orgs)
	s.call("GET", "/organizations/"+orgs.Organizations[0].ID, nil).want(t, 200)
	s.call("GET", "/organizations/org-nope-12345678", nil).want(t, 404)
	s.call("GET", "/projects/"+pid+"/branches/count", nil).want(t, 200)
	s.call("GET", "/projects/nope-12345678/branches/count", nil).want(t, 404)
	s.call("POST", br+"/set_as_default", nil).want(t, 200)
	s.call("POST", "/projects/"+pid+"/branches/br-nope-a5000000/set_as_default", nil).want(t, 404)
	s.call("POST", br+"/roles", map[string]any{"role": map[string]any{"name": "x"}}).want(t, 405)
	s.call("DELETE", br+"/roles/neondb_owner", nil).want(t, 405)
	s.call("POST", br+"/databases", map[string]any{"database": map[string]any{"name": "x", "owner_name": "neondb_owner"}}).want(t, 405)
	s.call("PATCH", br+"/databases/neondb", map[string]any{"database": map[string]any{"name": "y"}}).want(t, 405)
	s.call("DELETE", br+"/databases/neondb", nil).want(t, 405)

	refused := map[string]bool{}
	for _, op := range []string{"POST /projects/{project_id}/branches/{branch_id}/roles", "DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
		"POST /projects/{project_id}/branches/{branch_id}/databases", "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
		"DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}"} {
		refused[op] = true
	}
	if missing := unvalidated(t, s, sandboxSpecFile, refused); len(missing) > 0 {
		t.Errorf("sandbox operations without a validated answer: %s\nvalidated: %v", strings.Join(missing, ", "), s.validated)
	}
}

// A branch keeps the labels it is created with (annotation_value, which the service's
// CLI sends with every branch it creates, {} by default) and shows them in its
// annotation and in the list's annotations.
func TestBranchAnnotations(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	var p api.ProjectCreated
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"branch": map[string]any{"annotations": map[string]string{"team": "shop"}}}}).
		want(t, 201).decode(t, &p)
	pid := p.Project.ID
	s.settle()
	var dev, plain api.BranchCreated
	s.call("POST", "/projects/"+pid+"/branches", map[string]any{"branch": map[string]any{"name": "dev"}, "annotation_value": map[string]string{"github-commit-ref": "feature-x"}}).
		want(t, 201).decode(t, &dev)
	s.settle()
	s.call("POST", "/projects/"+pid+"/branches", map[string]any{"branch": map[string]any{"name": "plain"}, "annotation_value": map[string]string{}}).
		want(t, 201).decode(t, &plain)
	s.settle()

	var one api.BranchResponse
	s.call("GET", "/projects/"+pid+"/branches/"+dev.Branch.ID, nil).want(t, 200).decode(t, &one)
	if one.Annotation == nil || one.Annotation.Value["github-commit-ref"] != "feature-x" || one.Annotation.Object.ID != dev.Branch.ID {
		t.Errorf("GET branch annotation %+v, want the label it was created with", one.Annotation)
	}
	var list struct {
		Annotations map[string]api.Annotation `json:"annotations"`
	}
	s.call("GET", "/projects/"+pid+"/branches", nil).want(t, 200).decode(t, &list)
	if len(list.Annotations) != 2 || list.Annotations[p.Branch.ID].Value["team"] != "shop" || list.Annotations[dev.Branch.ID].Value["github-commit-ref"] != "feature-x" {
		t.Errorf("list annotations %+v, want main's and dev's (plain has none)", list.Annotations)
	}
	many := map[string]string{}
	for i := range 51 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	wantCode(t, s.call("POST", "/projects/"+pid+"/branches", map[string]any{"annotation_value": many}), 400, codeBadRequest)
}

// A branch of a protected branch gets roles with passwords of their own.
func TestBranchOfProtectedParentGetsNewPasswords(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	var p projectCreatedAnswer
	s.call("POST", "/projects", map[string]any{"project": map[string]any{}}).want(t, 201).decode(t, &p)
	pid, main := p.Project.ID, p.Branch.ID
	s.settle()
	reveal := func(branchID string) string {
		var pw api.RolePasswordResponse
		s.call("GET", "/projects/"+pid+"/branches/"+branchID+"/roles/neondb_owner/reveal_password", nil).want(t, 200).decode(t, &pw)
		return pw.Password
	}
	dev := s.newBranch(pid, "dev")
	if got := reveal(dev); got != p.Roles[0].Password {
		t.Errorf("a branch of an unprotected parent: password %q, want the parent's %q", got, p.Roles[0].Password)
	}
	s.call("PATCH", "/projects/"+pid+"/branches/"+main, map[string]any{"branch": map[string]any{"protected": true}}).want(t, 200)
	safe := s.newBranch(pid, "safe")
	if got := reveal(safe); got == p.Roles[0].Password || got == "" {
		t.Errorf("a branch of a protected parent: password %q, want a new one", got)
	}
}
