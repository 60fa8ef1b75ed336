package emulator

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/neonform/neonform/api"
)

// Every operation of every path in the OpenAPI description answers, on success and
// on error, with a body the description accepts. Each call below goes through the
// harness's check; the test then makes sure none was left out.
func TestEveryDocumentedOperationValidates(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	pid, main, primary := p.Project.ID, p.Branch.ID, p.Endpoints[0].ID
	prj := "/projects/" + pid
	s.call("GET", prj+"/branches?sort_by=size", nil).want(t, 400)
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 422)
	s.call("DELETE", prj+"/endpoints/"+primary, nil).want(t, 423)
	s.settle()

	s.call("GET", "/projects", nil).want(t, 200)
	s.call("GET", "/projects?limit=0", nil).want(t, 400)
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"region_id": "mars-1"}}).want(t, 400)
	s.call("GET", prj, nil).want(t, 200)
	s.call("GET", "/projects/nope-00000000", nil).want(t, 404)
	s.call("PATCH", prj, map[string]any{"project": map[string]any{"name": "shop2"}}).want(t, 200)
	s.call("PATCH", prj, map[string]any{"project": map[string]any{"name": ""}}).want(t, 400)

	s.call("GET", prj+"/branches", nil).want(t, 200)
	s.call("GET", prj+"/branches/"+main, nil).want(t, 200)
	s.call("GET", prj+"/branches/br-nope-a5000000", nil).want(t, 404)
	s.call("POST", prj+"/branches", map[string]any{"branch": map[string]any{"parent_id": "br-nope-a5000000"}}).want(t, 404)
	var dev api.BranchCreated
	s.call("POST", prj+"/branches", map[string]any{"branch": map[string]any{"name": "dev"},
		"endpoints": []map[string]any{{"type": "read_write"}}}).want(t, 201).decode(t, &dev)
	s.settle()
	s.call("PATCH", prj+"/branches/"+dev.Branch.ID, map[string]any{"branch": map[string]any{"name": "main"}}).want(t, 409)
	s.call("PATCH", prj+"/branches/"+dev.Branch.ID, map[string]any{"branch": map[string]any{"name": "develop"}}).want(t, 200)
	s.call("GET", prj+"/branches/"+main+"/endpoints", nil).want(t, 200)
	s.call("GET", prj+"/branches/br-nope-a5000000/endpoints", nil).want(t, 404)

	s.call("GET", prj+"/endpoints", nil).want(t, 200)
	s.call("GET", "/projects/nope-00000000/endpoints", nil).want(t, 404)
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_write"}).want(t, 409)
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201).decode(t, &ro)
	s.settle()
	ep := prj + "/endpoints/" + ro.Endpoint.ID
	s.call("GET", ep, nil).want(t, 200)
	s.call("GET", prj+"/endpoints/ep-nope-a5000000", nil).want(t, 404)
	s.call("PATCH", ep, map[string]any{"endpoint": map[string]any{"type": "read_write"}}).want(t, 400)
	s.call("PATCH", ep, map[string]any{"endpoint": map[string]any{"autoscaling_limit_max_cu": 2}}).want(t, 200)
	s.settle()
	s.call("POST", ep+"/restart", nil).want(t, 200)
	s.settle()
	s.call("POST", ep+"/suspend", nil).want(t, 200)
	s.call("POST", prj+"/endpoints/ep-nope-a5000000/suspend", nil).want(t, 404)
	s.settle()
	s.call("POST", ep+"/restart", nil).want(t, 409)
	s.call("POST", ep+"/start", nil).want(t, 200)
	s.call("POST", prj+"/endpoints/ep-nope-a5000000/start", nil).want(t, 404)
	s.settle()

	var ops api.OperationsResponse
	s.call("GET", prj+"/operations", nil).want(t, 200).decode(t, &ops)
	s.call("GET", prj+"/operations?cursor=nope", nil).want(t, 400)
	s.call("GET", prj+"/operations/"+ops.Operations[0].ID, nil).want(t, 200)
	s.call("GET", prj+"/operations/0c5ab8a3-0000-4000-8000-000000000000", nil).want(t, 404)

	s.call("DELETE", ep, nil).want(t, 200)
	s.call("DELETE", ep, nil).want(t, 204)
	s.settle()
	s.call("DELETE", prj+"/branches/"+main, nil).want(t, 400)
	s.call("DELETE", prj+"/branches/"+dev.Branch.ID, nil).want(t, 200)
	s.call("DELETE", prj+"/branches/"+dev.Branch.ID, nil).want(t, 204)
	s.settle()
	s.call("DELETE", prj, nil).want(t, 200)
	s.call("DELETE", prj, nil).want(t, 404)

	var key api.ApiKeyCreateResponse
	s.call("POST", "/api_keys", map[string]any{"key_name": "ci"}).want(t, 200).decode(t, &key)
	s.call("POST", "/api_keys", map[string]any{}).want(t, 400)
	s.call("GET", "/api_keys", nil).want(t, 200)
	s.callAs("", "GET", "/api_keys", nil).want(t, 401)
	s.call("DELETE", "/api_keys/"+itoa(key.ID), nil).want(t, 200)
	s.call("DELETE", "/api_keys/1", nil).want(t, 404)

	// Each operation answered at least one success and one error, all checked.
	if missing := unvalidated(t, s, specFile, nil); len(missing) > 0 {
		t.Errorf("operations without a validated success and error: %s\nvalidated: %v", strings.Join(missing, ", "), s.validated)
	}
}

// unvalidated lists the operations of a spec file that did not answer both a success
// and an error through the harness's check; those in errorOnly need only an error.
func unvalidated(t *testing.T, s *service, file string, errorOnly map[string]bool) []string {
	t.Helper()
	doc, err := loadSpec(openapi3.NewLoader(), file)
	must(t, err)
	var missing []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			op := method + " " + path
			var ok, failed bool
			for seen := range s.validated {
				i := strings.LastIndex(seen, " ")
				if seen[:i] != op {
					continue
				}
				code, _ := strconv.Atoi(seen[i+1:])
				ok = ok || code < 300
				failed = failed || code >= 400
			}
			if !failed || (!ok && !errorOnly[op]) {
				missing = append(missing, op)
			}
		}
	}
	sort.Strings(missing)
	return missing
}

// The check is not a rubber stamp: answers that break the description fail it.
func TestSpecCheckCatchesBadAnswers(t *testing.T) {
	ep := `{"endpoint":{"id":"ep-x","project_id":"p-1"}}`
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/projects/p-1/endpoints/ep-x", 200, ep},
		{"GET", "/projects/p-1/endpoints/ep-x", 404, `{"message":"no code"}`},
		{"GET", "/projects/p-1/endpoints/ep-x", 423, `{"code":1,"message":"code is not a string"}`},
		{"GET", "/api_keys", 200, `{"keys":[]}`},
		{"GET", "/projects", 200, `{"projects":[]}`},
		{"POST", "/projects/p-1/endpoints/ep-x/restart", 200, `{"endpoint":` + ep + `}`},
		{"GET", "/users/me", 200, `{"id":"u1","email":"ada@example.com"}`},
		{"GET", "/projects/p-1/branches/br-1/roles", 200, `{"roles":[{"name":"app"}]}`},
		{"GET", "/projects/p-1/connection_uri", 200, `{"connection_uri":"postgresql://"}`},
		{"GET", "/projects/shared", 200, `{"projects":{}}`},
	} {
		req, _ := http.NewRequest(tc.method, "http://127.0.0.1/api/v2"+tc.path, nil)
		r := reply{status: tc.status, header: http.Header{"Content-Type": {"application/json"}}, body: []byte(tc.body)}
		if route, err := checkAnswer(req, r); route == "" || err == nil {
			t.Errorf("%s %s -> %d %s passed the check (route %q)", tc.method, tc.path, tc.status, tc.body, route)
		}
	}
}
