package emulator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// The rules of docs/service.md that refuse a request.

// actions lists the actions and statuses of a call's operations.
func actions(ops []api.Operation) string {
	var parts []string
	for _, op := range ops {
		parts = append(parts, string(op.Action)+":"+string(op.Status))
	}
	return strings.Join(parts, " ")
}

// newBranch creates a branch without computes and waits for it.
func (s *service) newBranch(projectID, name string) string {
	s.t.Helper()
	var out api.BranchCreated
	s.call("POST", "/projects/"+projectID+"/branches", map[string]any{"branch": map[string]any{"name": name}}).want(s.t, 201).decode(s.t, &out)
	s.settle()
	return out.Branch.ID
}

func TestOneReadWriteComputePerBranch(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	pid, main := p.Project.ID, p.Branch.ID
	primary := p.Endpoints[0].ID
	s.settle()

	ge := wantCode(t, s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_write"}), 409, codeReadWriteExists)
	if !strings.Contains(ge.Message, primary) || !strings.Contains(ge.Message, "only one") {
		t.Errorf("message %q should name the branch's read_write endpoint %s and the rule", ge.Message, primary)
	}
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201).decode(t, &ro)
	s.settle()
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201)
	s.settle()

	// Moving the primary away frees the branch; moving one onto a branch that has one does not.
	dev := s.newBranch(pid, "dev")
	s.patchEndpoint(pid, primary, map[string]any{"branch_id": dev}).want(t, 200)
	s.settle()
	var second api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_write"}).want(t, 201).decode(t, &second)
	s.settle()
	wantCode(t, s.patchEndpoint(pid, second.Endpoint.ID, map[string]any{"branch_id": dev}), 409, codeReadWriteExists)
	if got := s.endpoint(pid, second.Endpoint.ID).BranchID; got != main {
		t.Errorf("a refused move moved the endpoint to %s", got)
	}
	// A read replica may join a branch that has a primary.
	s.patchEndpoint(pid, ro.Endpoint.ID, map[string]any{"branch_id": dev}).want(t, 200)
	s.settle()
	// A branch asked for with two primaries is refused whole.
	wantCode(t, s.call("POST", "/projects/"+pid+"/branches", map[string]any{"branch": map[string]any{"name": "twice"},
		"endpoints": []map[string]any{{"type": "read_write"}, {"type": "read_write"}}}), 409, codeReadWriteExists)

	var list api.EndpointsResponse
	s.call("GET", "/projects/"+pid+"/endpoints", nil).want(t, 200).decode(t, &list)
	perBranch := map[string]int{}
	for _, ep := range list.Endpoints {
		if ep.Type == api.EndpointTypeReadWrite {
			perBranch[ep.BranchID]++
		}
	}
	if perBranch[main] != 1 || perBranch[dev] != 1 || len(list.Endpoints) != 4 {
		t.Errorf("read_write computes per branch %v among %d endpoints, want one on main and one on dev among 4", perBranch, len(list.Endpoints))
	}
}

func TestTypeAndRegionCannotBeUpdated(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	pid, id := p.Project.ID, p.Endpoints[0].ID
	s.settle()
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"type": "read_only"}, "type cannot be changed"},
		{map[string]any{"region_id": "aws-eu-central-1"}, "region_id cannot be changed"},
		{map[string]any{"type": "read_write", "name": "x"}, "type cannot be changed"},
	} {
		ge := wantCode(t, s.patchEndpoint(pid, id, tc.body), 400, codeBadRequest)
		if !strings.Contains(ge.Message, tc.want) {
			t.Errorf("PATCH %v: message %q, want %q", tc.body, ge.Message, tc.want)
		}
	}
	got := s.endpoint(pid, id)
	if got.Type != api.EndpointTypeReadWrite || got.RegionID != "aws-us-east-2" || got.Name != "" {
		t.Errorf("a refused PATCH changed the endpoint: %+v", got)
	}
	// At creation the region can only be the project's.
	ge := wantCode(t, s.createEndpoint(pid, map[string]any{"branch_id": p.Branch.ID, "type": "read_only", "region_id": "aws-eu-central-1"}), 400, codeBadRequest)
	if !strings.Contains(ge.Message, "aws-us-east-2") {
		t.Errorf("message %q should name the project's region", ge.Message)
	}
	s.createEndpoint(pid, map[string]any{"branch_id": p.Branch.ID, "type": "read_only", "region_id": "aws-us-east-2"}).want(t, 201)
}

func TestComputeSizes(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	paid := s.newProject("paid")
	free := s.newProject("free")
	must(t, s.emu.SetProjectTier(free.Project.ID, sizing.Free))

	for _, tc := range []struct {
		min, max  float64
		paid, fre bool   // accepted on each plan
		why       string // in the message when refused on paid
	}{
		{0.25, 0.25, true, true, ""},
		{0.25, 2, true, true, ""},
		{8, 16, true, false, ""},
		{1, 9, true, false, ""},
		{0.5, 9, false, false, "spans at most 8 CU"},
		{0.25, 16, false, false, "spans at most 8 CU"},
		{2, 2, true, true, ""},
		{3, 3, true, false, ""},
		{16, 16, true, false, ""},
		{18, 18, true, false, ""},
		{56, 56, true, false, ""},
		{17, 17, false, false, "17 CU is not a size"},
		{19, 19, false, false, "19 CU is not a size"},
		{58, 58, false, false, "The largest is 56"},
		{0.3, 1, false, false, "0.3 CU is not a size"},
		{1, 18, false, false, "fixed only"},
		{4, 2, false, false, "larger than max_cu"},
	} {
		name := fmt.Sprintf("%g..%g", tc.min, tc.max)
		body := map[string]any{"type": "read_only", "autoscaling_limit_min_cu": tc.min, "autoscaling_limit_max_cu": tc.max}
		for _, plan := range []struct {
			p  api.ProjectCreated
			ok bool
		}{{paid, tc.paid}, {free, tc.fre}} {
			body["branch_id"] = plan.p.Branch.ID
			r := s.createEndpoint(plan.p.Project.ID, body)
			if plan.ok {
				r.want(t, 201)
				continue
			}
			ge := wantCode(t, r, 400, codeBadRequest)
			if plan.p.Project.ID == paid.Project.ID && !strings.Contains(ge.Message, tc.why) {
				t.Errorf("%s: message %q does not say %q", name, ge.Message, tc.why)
			}
			if tc.paid && !strings.Contains(ge.Message, "free plan") {
				t.Errorf("%s on the free plan: message %q should name the free plan's limit", name, ge.Message)
			}
		}
	}

	// A PATCH is held to the same rules, against the size it would leave.
	fp := free.Endpoints[0].ID
	s.patchEndpoint(free.Project.ID, fp, map[string]any{"autoscaling_limit_max_cu": 2}).want(t, 200)
	wantCode(t, s.patchEndpoint(free.Project.ID, fp, map[string]any{"autoscaling_limit_max_cu": 4}), 400, codeBadRequest)
	pp := paid.Endpoints[0].ID
	s.patchEndpoint(paid.Project.ID, pp, map[string]any{"autoscaling_limit_min_cu": 0.25, "autoscaling_limit_max_cu": 8}).want(t, 200)
	wantCode(t, s.patchEndpoint(paid.Project.ID, pp, map[string]any{"autoscaling_limit_min_cu": 10}), 400, codeBadRequest)
	if got := s.endpoint(paid.Project.ID, pp); got.AutoscalingLimitMinCU != 0.25 || got.AutoscalingLimitMaxCU != 8 {
		t.Errorf("after a refused PATCH: %g..%g, want 0.25..8", got.AutoscalingLimitMinCU, got.AutoscalingLimitMaxCU)
	}
}

func TestPatchAnswersWithItsOperations(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	pid, id, main := p.Project.ID, p.Endpoints[0].ID, p.Branch.ID
	s.settle()
	dev := s.newBranch(pid, "dev")

	for _, tc := range []struct {
		name             string
		body             map[string]any
		ops              string
		current, pending api.EndpointState
		after            api.EndpointState
	}{
		{"resize restarts", map[string]any{"autoscaling_limit_max_cu": 2}, "apply_config:running", "active", "active", "active"},
		{"settings restart", map[string]any{"settings": map[string]any{"pg_settings": map[string]string{"work_mem": "64MB"}}}, "apply_config:running", "active", "active", "active"},
		{"suspend timeout changes nothing", map[string]any{"suspend_timeout_seconds": 600}, "apply_config:running", "active", "", "active"},
		{"a move suspends", map[string]any{"branch_id": dev}, "apply_config:running suspend_compute:scheduling", "idle", "idle", "idle"},
		{"a change to an idle compute wakes it briefly", map[string]any{"name": "primary"}, "apply_config:running suspend_compute:scheduling", "idle", "idle", "idle"},
	} {
		var out api.EndpointOperations
		s.patchEndpoint(pid, id, tc.body).want(t, 200).decode(t, &out)
		if got := actions(out.Operations); got != tc.ops {
			t.Errorf("%s: operations %s, want %s", tc.name, got, tc.ops)
		}
		if out.Endpoint.CurrentState != tc.current || out.Endpoint.PendingState != tc.pending {
			t.Errorf("%s: answer shows %s pending %q, want %s pending %q", tc.name, out.Endpoint.CurrentState, out.Endpoint.PendingState, tc.current, tc.pending)
		}
		s.settle()
		if got := s.endpoint(pid, id).CurrentState; got != tc.after {
			t.Errorf("%s: then %s, want %s", tc.name, got, tc.after)
		}
	}
	if got := s.endpoint(pid, id); got.BranchID != dev || got.Name != "primary" || got.AutoscalingLimitMaxCU != 2 ||
		got.SuspendTimeoutSeconds != 600 || got.Settings.PgSettings["work_mem"] != "64MB" {
		t.Errorf("the endpoint does not hold every change: %+v", got)
	}

	// Disabling suspends a compute; a disabled compute cannot be started.
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}).want(t, 201).decode(t, &ro)
	s.settle()
	var out api.EndpointOperations
	s.patchEndpoint(pid, ro.Endpoint.ID, map[string]any{"disabled": true}).want(t, 200).decode(t, &out)
	if got := actions(out.Operations); got != "apply_config:running suspend_compute:scheduling" || out.Endpoint.PendingState != "idle" {
		t.Errorf("disabling: operations %s pending %q, want apply_config and suspend_compute, pending idle", got, out.Endpoint.PendingState)
	}
	s.settle()
	wantCode(t, s.call("POST", "/projects/"+pid+"/endpoints/"+ro.Endpoint.ID+"/start", nil), 409, codeDisabled)
	if got := s.endpoint(pid, ro.Endpoint.ID).CurrentState; got != "idle" {
		t.Errorf("a disabled compute is %s, want idle", got)
	}
}

func TestMutationWhileOperationsRunIs423(t *testing.T) {
	s := newService(t, Options{OpDelay: 10 * time.Second})
	p := s.newProject("shop")
	pid, id, main := p.Project.ID, p.Endpoints[0].ID, p.Branch.ID
	ep := "/projects/" + pid + "/endpoints/" + id

	// create_timeline runs for 10 s: the branch is not ready for a new compute.
	ge := wantCode(t, s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}), 422, codeNotReady)
	if ge.Message != "branch not ready yet" {
		t.Errorf("422 message %q, want the service's %q", ge.Message, "branch not ready yet")
	}
	s.clock.Advance(10 * time.Second)
	// start_compute runs for the next 10 s: every mutation of the project is 423.
	for _, r := range []reply{
		s.createEndpoint(pid, map[string]any{"branch_id": main, "type": "read_only"}),
		s.patchEndpoint(pid, id, map[string]any{"name": "x"}),
		s.call("DELETE", ep, nil),
		s.call("POST", ep+"/suspend", nil),
		s.call("POST", ep+"/start", nil),
		s.call("POST", "/projects/"+pid+"/branches", map[string]any{}),
		s.call("PATCH", "/projects/"+pid, map[string]any{"project": map[string]any{"name": "x"}}),
		s.call("DELETE", "/projects/"+pid, nil),
	} {
		ge := wantCode(t, r, 423, codeLocked)
		if ge.Message != "project already has running conflicting operations, scheduling of new ones is prohibited" {
			t.Errorf("423 message %q is not the service's", ge.Message)
		}
	}
	// Reads go on, and show what runs.
	var ops api.OperationsResponse
	s.call("GET", "/projects/"+pid+"/operations", nil).want(t, 200).decode(t, &ops)
	if got := actions(ops.Operations); got != "start_compute:running create_timeline:finished" {
		t.Errorf("operations %s, want start_compute running (newest first) after create_timeline finished", got)
	}
	s.clock.Advance(10 * time.Second)
	s.patchEndpoint(pid, id, map[string]any{"name": "x"}).want(t, 200)
	if s.endpoint(pid, id).Name != "x" {
		t.Error("the PATCH after the lock did not apply")
	}
}

// The rate limit is the service's (docs/service.md, Rate limits and waiting): a budget a minute for the
// whole account, all keys and routes together, and bursts a second per route. Past
// either, 429 with Retry-After and a message that says which.
func TestRateLimitIsPerAccountWithBurstsPerRoute(t *testing.T) {
	s := newService(t, Options{RatePerMinute: 5, Burst: 2})
	// A second key of the same user, and a key of another account, made without a request.
	s.emu.w.mu.RLock()
	orgID, user := "", s.emu.w.firstUser
	for id := range s.emu.w.orgs {
		orgID = id
	}
	s.emu.w.mu.RUnlock()
	sameAccount := s.emu.issueKey(&apiKey{Name: "laptop", Kind: keyPersonal, UserID: user, CreatedBy: user, CreatedAt: t0}).Key
	otherAccount := s.emu.issueKey(&apiKey{Name: "ci", Kind: keyOrganization, OrgID: orgID, CreatedBy: user, CreatedAt: t0}).Key

	s.call("GET", "/projects", nil).want(t, 200)
	s.call("GET", "/projects", nil).want(t, 200)
	r := s.call("GET", "/projects", nil)
	ge := wantCode(t, r, 429, codeRateLimited)
	if r.header.Get("Retry-After") != "1" || !strings.Contains(ge.Message, "2 requests to GET /projects in the last second") || !strings.Contains(ge.Message, "retry after 1 s") {
		t.Errorf("burst: Retry-After %q, message %q: want 1 second and the route's burst, said in both", r.header.Get("Retry-After"), ge.Message)
	}
	// The burst is the account's, whichever of its keys is used; another route has its own.
	s.callAs(sameAccount, "GET", "/projects", nil).want(t, 429)
	s.call("GET", "/api_keys", nil).want(t, 200)
	s.clock.Advance(time.Second)
	s.callAs(sameAccount, "GET", "/projects", nil).want(t, 200)
	s.call("GET", "/api_keys", nil).want(t, 200)

	// Five requests in this minute: the account's budget is spent, on every route.
	r = s.call("GET", "/projects/nope-00000000", nil)
	ge = wantCode(t, r, 429, codeRateLimited)
	if r.header.Get("Retry-After") != "59" || !strings.Contains(ge.Message, "5 requests in the last minute") {
		t.Errorf("minute budget: Retry-After %q, message %q; want 59 s (the first request leaves the window then) and the budget named", r.header.Get("Retry-After"), ge.Message)
	}
	// Another account has a budget of its own.
	s.callAs(otherAccount, "GET", "/projects", nil).want(t, 200)
	s.clock.Advance(58 * time.Second)
	s.call("GET", "/api_keys", nil).want(t, 429)
	s.clock.Advance(time.Second)
	s.call("GET", "/api_keys", nil).want(t, 200)
	if got := s.emu.Stats().Statuses["429"]; got != 4 {
		t.Errorf("stats count %d answers 429, want 4", got)
	}
}

// Computes above 16 CU never scale to zero: a request that sets a suspend timeout on
// one is refused, on create and on update; the default (0) and never (-1) are not.
func TestNoScaleToZeroAbove16CU(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("big")
	pid, main := p.Project.ID, p.Branch.ID
	for _, tc := range []struct {
		size    float64
		suspend int64
		ok      bool
	}{
		{16, 300, true}, {16, 60, true}, {18, 0, true}, {18, -1, true},
		{18, 60, false}, {18, 300, false}, {56, 604800, false},
	} {
		body := map[string]any{"type": "read_only", "branch_id": main, "autoscaling_limit_min_cu": tc.size,
			"autoscaling_limit_max_cu": tc.size, "suspend_timeout_seconds": tc.suspend}
		r := s.createEndpoint(pid, body)
		if tc.ok {
			r.want(t, 201)
			continue
		}
		ge := wantCode(t, r, 400, codeBadRequest)
		if !strings.Contains(ge.Message, "do not scale to zero") || !strings.Contains(ge.Message, fmt.Sprintf("suspend_timeout_seconds %d", tc.suspend)) {
			t.Errorf("%g CU, %d s: message %q", tc.size, tc.suspend, ge.Message)
		}
	}

	// Update: the size and the timeout the request leaves.
	ep := p.Endpoints[0].ID
	s.patchEndpoint(pid, ep, map[string]any{"suspend_timeout_seconds": 300}).want(t, 200)
	wantCode(t, s.patchEndpoint(pid, ep, map[string]any{"autoscaling_limit_min_cu": 24, "autoscaling_limit_max_cu": 24,
		"suspend_timeout_seconds": 600}), 400, codeBadRequest)
	s.patchEndpoint(pid, ep, map[string]any{"autoscaling_limit_min_cu": 24, "autoscaling_limit_max_cu": 24,
		"suspend_timeout_seconds": -1}).want(t, 200)
	wantCode(t, s.patchEndpoint(pid, ep, map[string]any{"suspend_timeout_seconds": 300}), 400, codeBadRequest)
	if got := s.endpoint(pid, ep); got.SuspendTimeoutSeconds != -1 || got.AutoscalingLimitMaxCU != 24 {
		t.Errorf("after a refused PATCH: %g CU, %d s; want 24 CU, never", got.AutoscalingLimitMaxCU, got.SuspendTimeoutSeconds)
	}
}
