package emulator

import (
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

// The states of docs/service.md (States and operations), one rule per test.

func TestCreateProjectMakesDefaultBranchAndPrimary(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	if p.Branch.Name != "main" || !p.Branch.Default || p.Branch.CurrentState != "init" {
		t.Errorf("branch = %+v, want default branch main in init", p.Branch)
	}
	if len(p.Endpoints) != 1 {
		t.Fatalf("endpoints = %d, want the primary compute", len(p.Endpoints))
	}
	ep := p.Endpoints[0]
	if ep.Type != api.EndpointTypeReadWrite || ep.BranchID != p.Branch.ID || ep.CurrentState != "init" || ep.PendingState != "active" {
		t.Errorf("endpoint = %+v, want read_write on main, init pending active", ep)
	}
	if ep.Host != ep.ID+".us-east-2.aws.neon.tech" || ep.ProxyHost != "us-east-2.aws.neon.tech" || ep.RegionID != "aws-us-east-2" {
		t.Errorf("host %q proxy %q region %q", ep.Host, ep.ProxyHost, ep.RegionID)
	}
	if !idLike(ep.ID, "ep-") || !idLike(p.Branch.ID, "br-") {
		t.Errorf("ids %q %q do not look like the service's", ep.ID, p.Branch.ID)
	}
	var actions []api.OperationAction
	var statuses []api.OperationStatus
	for _, op := range p.Operations {
		actions = append(actions, op.Action)
		statuses = append(statuses, op.Status)
	}
	if len(actions) != 2 || actions[0] != api.ActionCreateTimeline || actions[1] != api.ActionStartCompute ||
		statuses[0] != api.OperationRunning || statuses[1] != api.OperationScheduling {
		t.Errorf("operations %v %v, want create_timeline running, start_compute scheduling", actions, statuses)
	}
}

func TestNewEndpointIsInitUntilItsOperationFinishes(t *testing.T) {
	s := newService(t, Options{OpDelay: 10 * time.Second})
	p := s.newProject("shop")
	s.settle()
	var out api.EndpointOperations
	s.createEndpoint(p.Project.ID, map[string]any{"branch_id": p.Branch.ID, "type": "read_only"}).want(t, 201).decode(t, &out)
	ep := out.Endpoint
	if ep.CurrentState != "init" || ep.PendingState != "active" || ep.LastActive != nil {
		t.Errorf("new endpoint state %s pending %s last_active %v, want init, active, none", ep.CurrentState, ep.PendingState, ep.LastActive)
	}
	if ep.AutoscalingLimitMinCU != 1 || ep.AutoscalingLimitMaxCU != 1 || ep.PoolerEnabled || ep.PoolerMode != "transaction" ||
		ep.Disabled || !ep.PasswordlessAccess {
		t.Errorf("defaults wrong: %+v", ep)
	}
	if len(out.Operations) != 1 || out.Operations[0].Action != api.ActionStartCompute || out.Operations[0].Status != api.OperationRunning {
		t.Errorf("operations = %+v, want start_compute running", out.Operations)
	}

	s.clock.Advance(9 * time.Second)
	if got := s.endpoint(p.Project.ID, ep.ID); got.CurrentState != "init" || got.PendingState != "active" {
		t.Errorf("after 9s of a 10s operation: %s pending %q, want init pending active", got.CurrentState, got.PendingState)
	}
	// The list leaves pending_state out, as the service's does (docs/service.md, States and operations).
	list := s.call("GET", "/projects/"+p.Project.ID+"/endpoints", nil).want(t, 200)
	if strings.Contains(string(list.body), "pending_state") {
		t.Errorf("the list shows pending_state: %s", list.body)
	}
	s.clock.Advance(time.Second)
	got := s.endpoint(p.Project.ID, ep.ID)
	if got.CurrentState != "active" || got.PendingState != "" || got.LastActive == nil {
		t.Errorf("after the operation: %s pending %q last_active %v, want active with last_active", got.CurrentState, got.PendingState, got.LastActive)
	}
	var op api.OperationResponse
	s.call("GET", "/projects/"+p.Project.ID+"/operations/"+out.Operations[0].ID, nil).want(t, 200).decode(t, &op)
	if op.Operation.Status != api.OperationFinished || op.Operation.TotalDurationMs != 10000 {
		t.Errorf("operation = %+v, want finished after 10000 ms", op.Operation)
	}
}

func TestComputeGoesIdleAfterSuspendTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout int64
		idleAt  time.Duration // after becoming active; 0 = never
	}{
		{"default is 300s", 0, 300 * time.Second},
		{"custom 60s", 60, 60 * time.Second},
		{"never", -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newService(t, Options{OpDelay: -1})
			p := s.newProject("shop")
			ep := p.Endpoints[0]
			s.patchEndpoint(p.Project.ID, ep.ID, map[string]any{"suspend_timeout_seconds": tc.timeout}).want(t, 200)
			if got := s.endpoint(p.Project.ID, ep.ID).CurrentState; got != "active" {
				t.Fatalf("state %s, want active at start", got)
			}
			if tc.idleAt == 0 {
				s.clock.Advance(30 * 24 * time.Hour)
				if got := s.endpoint(p.Project.ID, ep.ID).CurrentState; got != "active" {
					t.Errorf("with suspend_timeout -1, state after 30 days = %s, want active", got)
				}
				return
			}
			s.clock.Advance(tc.idleAt - time.Second)
			if got := s.endpoint(p.Project.ID, ep.ID).CurrentState; got != "active" {
				t.Errorf("one second before the timeout: %s, want active", got)
			}
			s.clock.Advance(time.Second)
			got := s.endpoint(p.Project.ID, ep.ID)
			if got.CurrentState != "idle" || got.SuspendedAt == nil || !got.SuspendedAt.Equal(t0.Add(tc.idleAt)) {
				t.Errorf("at the timeout: %s suspended_at %v, want idle at %v", got.CurrentState, got.SuspendedAt, t0.Add(tc.idleAt))
			}
		})
	}
}

func TestActivityKeepsComputeActiveAndWakesIt(t *testing.T) {
	s := newService(t, Options{OpDelay: 2 * time.Second})
	p := s.newProject("shop")
	id := p.Endpoints[0].ID
	s.clock.Advance(4 * time.Second) // create_timeline + start_compute
	s.clock.Advance(200 * time.Second)
	s.hook("POST", "/activity/"+id).want(t, 200)
	s.clock.Advance(200 * time.Second) // 404 s after start, 200 s after the query
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "active" {
		t.Fatalf("200 s after a query: %s, want active", got)
	}
	s.clock.Advance(100*time.Second + 2*time.Second) // the timeout, then the suspend_compute operation
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "idle" {
		t.Fatalf("300 s after the last query and the suspend: %s, want idle", got)
	}
	var woken api.EndpointResponse
	s.hook("POST", "/activity/"+id).want(t, 200).decode(t, &woken)
	if woken.Endpoint.CurrentState != "idle" || woken.Endpoint.PendingState != "active" {
		t.Errorf("a query on an idle compute: %s pending %s, want idle pending active", woken.Endpoint.CurrentState, woken.Endpoint.PendingState)
	}
	s.clock.Advance(2 * time.Second)
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "active" {
		t.Errorf("after the wake: %s, want active", got)
	}
}

// Scale to zero is the control plane's suspend_compute operation (docs/service.md, States and operations):
// dated when the timeout passed, running for OpDelay, locking the project meanwhile,
// with the compute active pending idle until it finishes.
func TestScaleToZeroIsASuspendOperation(t *testing.T) {
	s := newService(t, Options{OpDelay: 10 * time.Second})
	p := s.newProject("shop")
	pid, id := p.Project.ID, p.Endpoints[0].ID
	s.clock.Advance(20 * time.Second) // create_timeline, start_compute
	active := t0.Add(20 * time.Second)
	s.clock.Advance(300 * time.Second)

	got := s.endpoint(pid, id)
	if got.CurrentState != "active" || got.PendingState != "idle" {
		t.Errorf("when the timeout passes: %s pending %q, want active pending idle", got.CurrentState, got.PendingState)
	}
	var ops api.OperationsResponse
	s.call("GET", "/projects/"+pid+"/operations", nil).want(t, 200).decode(t, &ops)
	if len(ops.Operations) != 3 || actions(ops.Operations[:1]) != "suspend_compute:running" {
		t.Fatalf("operations %s, want suspend_compute running, newest first", actions(ops.Operations))
	}
	op := ops.Operations[0]
	if op.EndpointID != id || op.BranchID != p.Branch.ID || !op.CreatedAt.Equal(active.Add(300*time.Second)) {
		t.Errorf("suspend operation %+v, want endpoint %s, branch %s, created when the timeout passed", op, id, p.Branch.ID)
	}
	// Its id is stable: it was recorded once, not made up for each read.
	s.call("GET", "/projects/"+pid+"/operations/"+op.ID, nil).want(t, 200)
	ge := wantCode(t, s.patchEndpoint(pid, id, map[string]any{"name": "x"}), 423, codeLocked)
	if ge.Message != msgLocked {
		t.Errorf("423 message %q, want the service's", ge.Message)
	}
	s.call("POST", "/projects/"+pid+"/endpoints/"+id+"/start", nil).want(t, 423)

	s.clock.Advance(10 * time.Second)
	got = s.endpoint(pid, id)
	want := active.Add(310 * time.Second)
	if got.CurrentState != "idle" || got.SuspendedAt == nil || !got.SuspendedAt.Equal(want) || got.LastActive == nil || !got.LastActive.Equal(active) {
		t.Errorf("after the suspend: %s suspended_at %v last_active %v, want idle since %v, last active %v", got.CurrentState, got.SuspendedAt, got.LastActive, want, active)
	}
	s.call("GET", "/projects/"+pid+"/operations", nil).want(t, 200).decode(t, &ops)
	if len(ops.Operations) != 3 || actions(ops.Operations[:1]) != "suspend_compute:finished" {
		t.Errorf("operations %s, want the one suspend, finished", actions(ops.Operations))
	}
	s.patchEndpoint(pid, id, map[string]any{"name": "x"}).want(t, 200)
}

// A world file keeps the suspend operations, and a compute whose timeout passed while
// the emulator was stopped gets its operation when it is next looked at.
func TestScaleToZeroAcrossARestart(t *testing.T) {
	file := t.TempDir() + "/world.json"
	clock := NewFakeClock(t0)
	s := newService(t, Options{DataFile: file, Clock: clock, OpDelay: 10 * time.Second})
	p := s.newProject("shop")
	pid := p.Project.ID
	s.clock.Advance(time.Hour)
	s.endpoint(pid, p.Endpoints[0].ID)
	must(t, s.emu.Close())

	again := newService(t, Options{DataFile: file, Clock: clock, APIKey: s.key, OpDelay: 10 * time.Second})
	var ops api.OperationsResponse
	again.call("GET", "/projects/"+pid+"/operations", nil).want(t, 200).decode(t, &ops)
	if got := actions(ops.Operations); got != "suspend_compute:finished start_compute:finished create_timeline:finished" {
		t.Errorf("operations after a restart: %s", got)
	}
	p2 := again.newProject("later")
	again.clock.Advance(2 * time.Hour) // both time out while nobody looks
	again.call("GET", "/projects/"+p2.Project.ID+"/operations", nil).want(t, 200).decode(t, &ops)
	if got := actions(ops.Operations[:1]); got != "suspend_compute:finished" {
		t.Errorf("operations of a compute that timed out unobserved: %s", actions(ops.Operations))
	}
}

func TestStartWakesAnIdleCompute(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	id := p.Endpoints[0].ID
	s.clock.Advance(time.Hour)
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "idle" {
		t.Fatalf("after an hour: %s, want idle", got)
	}
	var out api.EndpointOperations
	s.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+id+"/start", nil).want(t, 200).decode(t, &out)
	if out.Endpoint.CurrentState != "idle" || out.Endpoint.PendingState != "active" || len(out.Operations) != 1 || out.Operations[0].Action != api.ActionStartCompute {
		t.Errorf("start answer: %s pending %s ops %+v", out.Endpoint.CurrentState, out.Endpoint.PendingState, out.Operations)
	}
	s.settle()
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "active" {
		t.Errorf("after start: %s, want active", got)
	}
}

func TestRestartOnlyWhenActive(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	id := p.Endpoints[0].ID
	path := "/projects/" + p.Project.ID + "/endpoints/" + id
	s.settle()

	var out api.EndpointOperations
	s.call("POST", path+"/restart", nil).want(t, 200).decode(t, &out)
	if len(out.Operations) != 2 || out.Operations[0].Action != api.ActionSuspendCompute || out.Operations[1].Action != api.ActionStartCompute {
		t.Errorf("restart operations = %+v, want suspend_compute then start_compute", out.Operations)
	}
	s.settle()
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "active" {
		t.Errorf("after restart: %s, want active", got)
	}

	s.clock.Advance(time.Hour)
	r := s.call("POST", path+"/restart", nil).want(t, 409)
	if ge := r.err(t); ge.Code != codeNotActive || ge.Message == "" {
		t.Errorf("restart on idle: %+v", ge)
	}
}

func TestSuspendMakesActiveComputeIdle(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	id := p.Endpoints[0].ID
	s.settle()
	var out api.EndpointOperations
	s.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+id+"/suspend", nil).want(t, 200).decode(t, &out)
	if out.Endpoint.PendingState != "idle" || len(out.Operations) != 1 || out.Operations[0].Action != api.ActionSuspendCompute {
		t.Errorf("suspend answer: pending %s ops %+v", out.Endpoint.PendingState, out.Operations)
	}
	s.settle()
	if got := s.endpoint(p.Project.ID, id).CurrentState; got != "idle" {
		t.Errorf("after suspend: %s, want idle", got)
	}
}

// An accepted PATCH of an idle compute wakes it for a short time to apply the change,
// and the control plane suspends it again: apply_config running, then suspend_compute
// (the OpenAPI description of the call and its example; docs/service.md, States and operations). The project
// is busy until both are over.
func TestPatchOfIdleComputeAppliesThenSuspends(t *testing.T) {
	s := newService(t, Options{OpDelay: 10 * time.Second})
	p := s.newProject("shop")
	pid, id := p.Project.ID, p.Endpoints[0].ID
	s.clock.Advance(time.Hour)
	if got := s.endpoint(pid, id).CurrentState; got != "idle" {
		t.Fatalf("after an hour: %s, want idle", got)
	}
	for _, body := range []map[string]any{{"suspend_timeout_seconds": 600}, {"autoscaling_limit_max_cu": 2}} {
		var out api.EndpointOperations
		s.patchEndpoint(pid, id, body).want(t, 200).decode(t, &out)
		if got := actions(out.Operations); got != "apply_config:running suspend_compute:scheduling" {
			t.Errorf("PATCH %v of an idle compute: operations %s, want apply_config running and suspend_compute scheduling", body, got)
		}
		if out.Endpoint.CurrentState != "idle" || out.Endpoint.PendingState != "idle" {
			t.Errorf("PATCH %v: %s pending %q, want idle pending idle", body, out.Endpoint.CurrentState, out.Endpoint.PendingState)
		}
		s.clock.Advance(15 * time.Second)
		wantCode(t, s.patchEndpoint(pid, id, map[string]any{"name": "x"}), 423, codeLocked)
		s.clock.Advance(5 * time.Second)
		var ops api.OperationsResponse
		s.call("GET", "/projects/"+pid+"/operations?limit=2", nil).want(t, 200).decode(t, &ops)
		if got := actions(ops.Operations); got != "suspend_compute:finished apply_config:finished" {
			t.Errorf("operations after 20 s: %s, want both finished", got)
		}
		if got := s.endpoint(pid, id).CurrentState; got != "idle" {
			t.Errorf("after the PATCH: %s, want idle again", got)
		}
	}
}

func TestDeleteReturnsLastRecordThen204(t *testing.T) {
	s := newService(t, Options{})
	p := s.newProject("shop")
	s.settle()
	var ro api.EndpointOperations
	s.createEndpoint(p.Project.ID, map[string]any{"branch_id": p.Branch.ID, "type": "read_only", "name": "reports"}).want(t, 201).decode(t, &ro)
	s.settle()
	path := "/projects/" + p.Project.ID + "/endpoints/" + ro.Endpoint.ID
	var out api.EndpointOperations
	s.call("DELETE", path, nil).want(t, 200).decode(t, &out)
	if out.Endpoint.ID != ro.Endpoint.ID || out.Endpoint.Name != "reports" || out.Endpoint.CurrentState != "active" {
		t.Errorf("delete answer endpoint = %+v, want the last record", out.Endpoint)
	}
	// It answers with the suspend_compute operation that stops the compute, as the
	// API reference's example does, and the operation holds the project.
	if got := actions(out.Operations); got != "suspend_compute:running" || out.Operations[0].EndpointID != ro.Endpoint.ID {
		t.Errorf("delete operations = %#v, want the endpoint's suspend_compute, running", out.Operations)
	}
	if r := s.call("DELETE", path, nil).want(t, 204); len(r.body) != 0 {
		t.Errorf("204 with a body: %s", r.body)
	}
	wantCode(t, s.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+p.Endpoints[0].ID+"/suspend", nil), 423, codeLocked)
	s.settle()
	var op api.OperationResponse
	s.call("GET", "/projects/"+p.Project.ID+"/operations/"+out.Operations[0].ID, nil).want(t, 200).decode(t, &op)
	if op.Operation.Status != "finished" {
		t.Errorf("the delete's operation after it settled: %s", op.Operation.Status)
	}
	s.call("GET", path, nil).want(t, 404)
	s.call("DELETE", "/projects/"+p.Project.ID+"/endpoints/ep-never-was-a5000000", nil).want(t, 204)
}

// idLike checks the shape prefix-adjective-noun-suffix.
func idLike(id, prefix string) bool {
	if !validID(id) || len(id) < len(prefix) || id[:len(prefix)] != prefix {
		return false
	}
	n := 0
	for _, c := range id {
		if c == '-' {
			n++
		}
	}
	return n == 3
}
