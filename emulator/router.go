package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// A handler does the work of one route. It returns the status and the body to encode
// (nil body: no content), or an *apiError.
type handler func(c *call) (int, any, error)

// route is one documented path of the API, relative to /api/v2.
type route struct {
	method   string
	template string // as the OpenAPI file writes it: /projects/{project_id}/endpoints
	segs     []string
	h        handler
	name     string // "GET /projects/{project_id}/endpoints": the key of the request counters
}

// router finds a route by method and path. The API has a few dozen routes, so a scan
// of those with the right number of segments is as fast as anything cleverer.
type router struct {
	bySegs map[int][]*route
}

func newRouter() *router { return &router{bySegs: map[int][]*route{}} }

// add registers a route. Routes are kept so that a fixed segment is tried before a
// parameter at the same place: /projects/shared is the list of shared projects, not
// the project "shared", whatever order the routes were added in.
func (rt *router) add(method, template string, h handler) {
	segs := strings.Split(strings.Trim(template, "/"), "/")
	r := &route{method: method, template: template, segs: segs, h: h, name: method + " " + template}
	list := append(rt.bySegs[len(segs)], r)
	slices.SortStableFunc(list, func(a, b *route) int { return compareSpecificity(a.segs, b.segs) })
	rt.bySegs[len(segs)] = list
}

// compareSpecificity orders two patterns of the same length: at the first place where
// one has a fixed segment and the other a parameter, the fixed one comes first.
func compareSpecificity(a, b []string) int {
	for i := range a {
		pa, pb := isParam(a[i]), isParam(b[i])
		switch {
		case !pa && pb:
			return -1
		case pa && !pb:
			return 1
		}
	}
	return 0
}

func isParam(seg string) bool { return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}' }

// maxParams is the most path parameters any route has.
const maxParams = 3

type pathParams struct {
	n      int
	names  [maxParams]string
	values [maxParams]string
}

func (p *pathParams) get(name string) string {
	for i := 0; i < p.n; i++ {
		if p.names[i] == name {
			return p.values[i]
		}
	}
	return ""
}

// match returns the route for method and path (relative to /api/v2) with its parameters.
// When the path exists but not for this method, it returns nil and the allowed methods.
// The path is the most specific template that matches: a less specific one never
// answers for it, so DELETE /projects/shared is 405, not a delete of project "shared".
func (rt *router) match(method, path string, params *pathParams) (*route, []string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var allowed []string
	template := ""
	for _, r := range rt.bySegs[len(segs)] {
		var p pathParams
		if !matchSegs(r.segs, segs, &p) {
			continue
		}
		if template == "" {
			template = r.template
		}
		if r.template != template {
			continue
		}
		if r.method != method {
			allowed = append(allowed, r.method)
			continue
		}
		*params = p
		return r, nil
	}
	return nil, allowed
}

func matchSegs(pattern, segs []string, p *pathParams) bool {
	for i, s := range pattern {
		if isParam(s) {
			if segs[i] == "" || p.n == maxParams {
				return false
			}
			p.names[p.n], p.values[p.n] = s[1:len(s)-1], segs[i]
			p.n++
			continue
		}
		if s != segs[i] {
			return false
		}
	}
	return true
}

// routes lists the API the emulator serves. Paths are those of the OpenAPI file, plus
// the organization API key paths of the full service description (docs/service.md, Authentication and API keys)
// and the paths of testdata/neon-openapi-v2-sandbox.json.
func (e *Emulator) routes() *router {
	rt := newRouter()
	rt.add(http.MethodGet, "/projects", e.listProjects)
	rt.add(http.MethodPost, "/projects", e.createProject)
	rt.add(http.MethodGet, "/projects/{project_id}", e.getProject)
	rt.add(http.MethodGet, "/projects/shared", e.listSharedProjects)
	rt.add(http.MethodDelete, "/projects/{project_id}", e.deleteProject)
	rt.add(http.MethodPatch, "/projects/{project_id}", e.updateProject)

	rt.add(http.MethodGet, "/projects/{project_id}/branches", e.listBranches)
	rt.add(http.MethodPost, "/projects/{project_id}/branches", e.createBranch)
	rt.add(http.MethodGet, "/projects/{project_id}/branches/{branch_id}", e.getBranch)
	// A fixed segment: count is not a branch (compareSpecificity).
	rt.add(http.MethodGet, "/projects/{project_id}/branches/count", e.countBranches)
	rt.add(http.MethodDelete, "/projects/{project_id}/branches/{branch_id}", e.deleteBranch)
	rt.add(http.MethodPatch, "/projects/{project_id}/branches/{branch_id}", e.updateBranch)
	rt.add(http.MethodGet, "/projects/{project_id}/branches/{branch_id}/endpoints", e.listBranchEndpoints)
	rt.add(http.MethodPost, "/projects/{project_id}/branches/{branch_id}/set_as_default", e.setDefaultBranch)

	rt.add(http.MethodGet, "/projects/{project_id}/endpoints", e.listEndpoints)
	rt.add(http.MethodPost, "/projects/{project_id}/endpoints", e.createEndpoint)
	rt.add(http.MethodGet, "/projects/{project_id}/endpoints/{endpoint_id}", e.getEndpoint)
	rt.add(http.MethodPatch, "/projects/{project_id}/endpoints/{endpoint_id}", e.updateEndpoint)
	rt.add(http.MethodDelete, "/projects/{project_id}/endpoints/{endpoint_id}", e.deleteEndpoint)
	rt.add(http.MethodPost, "/projects/{project_id}/endpoints/{endpoint_id}/start", e.startEndpoint)
	rt.add(http.MethodPost, "/projects/{project_id}/endpoints/{endpoint_id}/suspend", e.suspendEndpoint)
	rt.add(http.MethodPost, "/projects/{project_id}/endpoints/{endpoint_id}/restart", e.restartEndpoint)

	// Beside what neonform manages, what the service's CLI and MCP server need for
	// their everyday commands (account.go, roles.go, connection.go, branch_changes.go).
	rt.add(http.MethodGet, "/auth", e.getAuthDetails)
	rt.add(http.MethodGet, "/users/me", e.getCurrentUser)
	rt.add(http.MethodGet, "/users/me/organizations", e.listCurrentUserOrganizations)
	rt.add(http.MethodGet, "/organizations/{org_id}", e.getOrganization)
	rt.add(http.MethodGet, "/projects/{project_id}/connection_uri", e.getConnectionURI)
	roles := "/projects/{project_id}/branches/{branch_id}/roles"
	rt.add(http.MethodGet, roles, e.listRoles)
	rt.add(http.MethodPost, roles, readOnly)
	rt.add(http.MethodGet, roles+"/{role_name}", e.getRole)
	rt.add(http.MethodDelete, roles+"/{role_name}", readOnly)
	rt.add(http.MethodGet, roles+"/{role_name}/reveal_password", e.revealRolePassword)
	databases := "/projects/{project_id}/branches/{branch_id}/databases"
	rt.add(http.MethodGet, databases, e.listDatabases)
	rt.add(http.MethodPost, databases, readOnly)
	rt.add(http.MethodGet, databases+"/{database_name}", e.getDatabase)
	rt.add(http.MethodPatch, databases+"/{database_name}", readOnly)
	rt.add(http.MethodDelete, databases+"/{database_name}", readOnly)

	rt.add(http.MethodGet, "/projects/{project_id}/operations", e.listOperations)
	rt.add(http.MethodGet, "/projects/{project_id}/operations/{operation_id}", e.getOperation)

	rt.add(http.MethodGet, "/api_keys", e.listKeys)
	rt.add(http.MethodPost, "/api_keys", e.createKey)
	rt.add(http.MethodDelete, "/api_keys/{key_id}", e.revokeKey)
	rt.add(http.MethodGet, "/organizations/{org_id}/api_keys", e.listOrgKeys)
	rt.add(http.MethodPost, "/organizations/{org_id}/api_keys", e.createOrgKey)
	rt.add(http.MethodDelete, "/organizations/{org_id}/api_keys/{key_id}", e.revokeOrgKey)
	return rt
}
