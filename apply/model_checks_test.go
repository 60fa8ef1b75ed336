package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state"
)

// The checks of a model walk (model_test.go). Each one works from what the
// walk knows itself (the configuration it wrote, the endpoints it listed,
// the requests it saw) rather than from what the plan says of itself.

// modelSnapshot is the world before a step's plan: every live endpoint by id,
// and the state.
type modelSnapshot struct {
	live  map[string]api.Endpoint
	state *state.State
}

func (mw *modelWalk) snapshot() modelSnapshot {
	s := modelSnapshot{live: map[string]api.Endpoint{}, state: mw.readState()}
	for _, id := range modelProjects {
		for _, ep := range mw.w.endpoints(id) {
			s.live[ep.ID] = ep
		}
	}
	return s
}

func (mw *modelWalk) readState() *state.State {
	st, err := mw.w.state.Read(context.Background())
	if err != nil {
		mw.t.Fatal(err)
	}
	return st
}

// addressOf is the address the state gives an endpoint, or "".
func (mw *modelWalk) addressOf(endpointID string) string {
	for addr, c := range mw.readState().Computes {
		if c.EndpointID == endpointID {
			return addr
		}
	}
	return ""
}

// foreignPrimary reports whether a read_write endpoint the state does not
// record stands on the branch.
func (mw *modelWalk) foreignPrimary(p *modelProject, branch string) bool {
	st := mw.readState()
	for _, ep := range mw.w.endpoints(p.id) {
		if ep.BranchID == mw.branchIDs[p.id][branch] && ep.Type == api.EndpointTypeReadWrite && stateHolds(st, ep.ID) == "" {
			return true
		}
	}
	return false
}

// foreignReplicas lists the names of the named read replicas on the branch
// that the state does not record.
func (mw *modelWalk) foreignReplicas(p *modelProject, branch string) []string {
	st := mw.readState()
	var names []string
	for _, ep := range mw.w.endpoints(p.id) {
		if ep.BranchID == mw.branchIDs[p.id][branch] && ep.Type == api.EndpointTypeReadOnly && ep.Name != "" && stateHolds(st, ep.ID) == "" {
			names = append(names, ep.Name)
		}
	}
	slices.Sort(names)
	return names
}

// planChecked plans src and checks that every change of an existing endpoint
// that resizes it or changes its settings is marked restart or worse, and
// is active exactly when the endpoint was. nil: no plan (a failure).
func (mw *modelWalk) planChecked(src string, before modelSnapshot) *diff.Plan {
	mw.w.emu.ResetStats()
	p, err := mw.w.tryPlan(src)
	if err != nil {
		mw.failf("plan failed: %v", err)
		return nil
	}
	for route, n := range mw.w.emu.Stats().Requests {
		if !strings.HasPrefix(route, "GET ") {
			mw.failf("planning sent %d× %s: a plan only reads", n, route)
		}
	}
	if err := view.Human(io.Discard, p, view.HumanOptions{}); err != nil {
		mw.failf("showing the plan: %v", err)
	}
	if err := view.Markdown(io.Discard, p, 0); err != nil {
		mw.failf("showing the plan as Markdown: %v", err)
	}
	changes := map[string]*diff.Change{}
	for i := range p.Changes {
		changes[p.Changes[i].Address] = &p.Changes[i]
	}
	for _, ch := range p.Changes {
		if ep, ok := before.live[ch.EndpointID]; ok && ch.Active != (ep.CurrentState != api.EndpointStateIdle) {
			mw.failf("%s: the plan says active=%v, but %s was %s", ch.Address, ch.Active, ep.ID, ep.CurrentState)
		}
	}
	for _, s := range p.Steps {
		if s.Kind != diff.StepUpdate {
			continue
		}
		var body struct {
			Endpoint map[string]json.RawMessage `json:"endpoint"`
		}
		if err := json.Unmarshal(s.Body, &body); err != nil {
			mw.failf("step %d: body %s: %v", s.ID, s.Body, err)
			continue
		}
		var restarts []string
		for _, k := range []string{"autoscaling_limit_min_cu", "autoscaling_limit_max_cu", "settings"} {
			if _, ok := body.Endpoint[k]; ok {
				restarts = append(restarts, k)
			}
		}
		if len(restarts) == 0 {
			continue
		}
		ch := changes[s.Address]
		switch {
		case ch == nil:
			mw.failf("step %d (PATCH %s) has no change at %s", s.ID, s.Path, s.Address)
		case ch.Disruption < diff.Restart:
			mw.failf("%s: the PATCH sends %s, which restarts the compute, but the change is marked %s", s.Address, strings.Join(restarts, ", "), ch.Disruption)
		}
		if ch == nil {
			continue
		}
		for _, a := range ch.Attributes {
			if (a.Name == "min_cu" || a.Name == "max_cu" || strings.HasPrefix(a.Name, "pg_settings")) && a.Effect < diff.Restart {
				mw.failf("%s: attribute %s changes, marked %s, not restart", s.Address, a.Name, a.Effect)
			}
		}
	}
	return p
}

// modelCall is one change request the client sent.
type modelCall struct {
	method, path string // path relative to the API URL
	body         string // normalized JSON, "" for none
}

func (c modelCall) String() string {
	return strings.TrimSpace(c.method + " " + c.path + " " + c.body)
}

type callLog struct {
	mu    sync.Mutex
	calls []modelCall
}

func (l *callLog) list() []modelCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

// paths is the set of paths the calls changed.
func (l *callLog) paths() map[string]bool {
	out := map[string]bool{}
	for _, c := range l.list() {
		out[c.path] = true
	}
	return out
}

// recordCalls records every request that is not a read, until the tamper is
// cleared.
func (mw *modelWalk) recordCalls() *callLog {
	log := &callLog{}
	mw.w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != http.MethodGet {
			call := modelCall{method: req.Method, path: strings.TrimPrefix(req.URL.EscapedPath(), "/api/v2")}
			if req.Body != nil {
				b, err := io.ReadAll(req.Body)
				req.Body.Close()
				if err != nil {
					return nil, err
				}
				req.Body = io.NopCloser(bytes.NewReader(b))
				call.body = normalizeJSON(b)
			}
			log.mu.Lock()
			log.calls = append(log.calls, call)
			log.mu.Unlock()
		}
		return forward()
	})
	return log
}

func normalizeJSON(b []byte) string {
	if len(bytes.TrimSpace(b)) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "(not JSON) " + string(b)
	}
	out, _ := json.Marshal(v) // maps marshal with sorted keys
	return string(out)
}

// Routes of the endpoint calls, as the emulator counts them (emulator.Stats).
const (
	routeCreate = "POST /projects/{project_id}/endpoints"
	routeUpdate = "PATCH /projects/{project_id}/endpoints/{endpoint_id}"
	routeDelete = "DELETE /projects/{project_id}/endpoints/{endpoint_id}"
)

// plannedRoutes counts the plan's calls by route.
func plannedRoutes(p *diff.Plan) map[string]int64 {
	out := map[string]int64{}
	for _, s := range p.Steps {
		switch s.Kind {
		case diff.StepCreate:
			out[routeCreate]++
		case diff.StepUpdate:
			out[routeUpdate]++
		case diff.StepDelete:
			out[routeDelete]++
		}
	}
	return out
}

// checkCalls checks that apply sent exactly the plan's calls, each once and
// as the plan file writes it, as the client saw them and as the emulator
// counted them, and that the service refused none of its requests.
func (mw *modelWalk) checkCalls(p *diff.Plan, sent []modelCall, st emulator.Stats) {
	var want []string
	for _, s := range p.Steps {
		if s.Kind == diff.StepState {
			continue
		}
		want = append(want, modelCall{method: s.Method, path: s.Path, body: normalizeJSON(s.Body)}.String())
	}
	var got []string
	for _, c := range sent {
		got = append(got, c.String())
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		mw.failf("apply sent other calls than the plan's:\nthe plan's:\n  %s\nsent:\n  %s", strings.Join(want, "\n  "), strings.Join(got, "\n  "))
	}
	mw.checkOrder(p, sent)
	planned := plannedRoutes(p)
	for route, n := range st.Requests {
		if !strings.HasPrefix(route, "GET ") && n != planned[route] {
			mw.failf("the emulator got %d× %s during apply; the plan has %d", n, route, planned[route])
		}
	}
	for route, n := range planned {
		if st.Requests[route] != n {
			mw.failf("the plan has %d× %s; the emulator got %d", n, route, st.Requests[route])
		}
	}
	for status, n := range st.Statuses {
		if !strings.HasPrefix(status, "2") {
			mw.failf("the service answered %d request(s) of apply with %s: %v", n, status, st.Responses)
		}
	}
}

// checkOrder checks that every call was sent after the calls of the steps
// the plan says it waits for (docs/plans.md, the order of the calls).
func (mw *modelWalk) checkOrder(p *diff.Plan, sent []modelCall) {
	at := map[string]int{}
	for i, c := range sent {
		at[c.String()] = i
	}
	steps := map[int]diff.Step{}
	for _, s := range p.Steps {
		steps[s.ID] = s
	}
	position := func(s diff.Step) (int, bool) {
		i, ok := at[modelCall{method: s.Method, path: s.Path, body: normalizeJSON(s.Body)}.String()]
		return i, ok && s.Kind != diff.StepState
	}
	for _, s := range p.Steps {
		i, ok := position(s)
		if !ok {
			continue
		}
		for _, id := range s.After {
			if j, ok := position(steps[id]); ok && j > i {
				mw.failf("step %d (%s %s) was sent before step %d (%s %s), which it waits for", s.ID, s.Method, s.Path, id, steps[id].Method, steps[id].Path)
			}
		}
	}
}

// checkMadeOnce checks, after an apply under faults and the plan and apply
// that finished its work, that each of the plan's changes was made once:
// the service carried out (answered 2xx, whether the answer arrived or not)
// exactly as many creates, updates and deletes as the plan has.
func (mw *modelWalk) checkMadeOnce(p *diff.Plan, st emulator.Stats) {
	planned := plannedRoutes(p)
	done := map[string]int64{}
	for key, n := range st.Responses {
		i := strings.LastIndexByte(key, ' ')
		// 204: a delete of what is gone already, which changes nothing
		// (apply sends a delete whose answer was lost again).
		if route, status := key[:i], key[i+1:]; strings.HasPrefix(status, "2") && status != "204" && !strings.HasPrefix(route, "GET ") {
			done[route] += n
		}
	}
	if !maps.Equal(planned, done) {
		mw.failf("the service carried out %v; the plan has %v: a change was made twice or not at all", done, planned)
	}
}

// checkConverged checks the world after a step's applies: the next plan is
// empty, the live endpoints are what the configuration says and what the
// state records, and the endpoints nobody configured are as they were.
// touched is the set of paths apply changed (nil: not known).
func (mw *modelWalk) checkConverged(src string, before modelSnapshot, touched map[string]bool) {
	if next, err := mw.w.tryPlan(src); err != nil {
		mw.failf("the plan after apply failed: %v", err)
	} else if next.HasChanges() {
		var b bytes.Buffer
		view.Human(&b, next, view.HumanOptions{})
		mw.failf("the plan after apply is not empty:\n%s", b.String())
	}
	after := mw.snapshot()
	managed := mw.checkConfigured(after)
	for id, ep := range after.live {
		if managed[id] {
			continue
		}
		was, ok := before.live[id]
		switch {
		case !ok || mw.made[id]:
			mw.failf("%s was made by an apply, and no compute block claims it: a duplicate?", mw.describeEndpoint(ep))
		case before.state.Computes != nil && stateHolds(before.state, id) != "":
			mw.failf("%s was managed at %s, is no longer configured, and still stands", mw.describeEndpoint(ep), stateHolds(before.state, id))
		case mw.exclusive(ep.BranchID):
			mw.failf("%s stands on an exclusive branch that no compute block declares it on", mw.describeEndpoint(ep))
		case !reflect.DeepEqual(diff.LiveValues(&was), diff.LiveValues(&ep)):
			mw.failf("unmanaged %s changed: %+v, was %+v", mw.describeEndpoint(ep), diff.LiveValues(&ep), diff.LiveValues(&was))
		}
		for path := range touched {
			if strings.HasSuffix(path, "/"+id) || strings.Contains(path, "/"+id+"/") {
				mw.failf("apply called %s, on unmanaged %s", path, mw.describeEndpoint(ep))
			}
		}
	}
	for id, ep := range before.live {
		if _, ok := after.live[id]; ok || stateHolds(before.state, id) != "" || mw.exclusive(ep.BranchID) {
			continue
		}
		mw.failf("unmanaged %s, on a branch that is not exclusive, was deleted", mw.describeEndpoint(ep))
	}
}

// checkConfigured checks that every configured compute is a live endpoint of
// the values it asks for, recorded at its address in the state, and that the
// state records nothing else. It returns the endpoints the state manages.
func (mw *modelWalk) checkConfigured(now modelSnapshot) map[string]bool {
	managed := map[string]bool{}
	configured := map[string]bool{}
	for _, p := range mw.cfg.projects {
		for _, b := range p.branches {
			for _, c := range b.computes {
				addr := address(p, b, c)
				configured[addr] = true
				sc := now.state.Computes[addr]
				if sc == nil {
					mw.failf("%s is configured but not in the state", addr)
					continue
				}
				if managed[sc.EndpointID] {
					mw.failf("the state gives %s to two addresses, %s one of them", sc.EndpointID, addr)
				}
				managed[sc.EndpointID] = true
				ep, ok := now.live[sc.EndpointID]
				if !ok {
					mw.failf("%s: the state records %s, which does not exist", addr, sc.EndpointID)
					continue
				}
				if d := mw.differs(p, b, c, &ep); d != "" {
					mw.failf("%s is %s, which %s", addr, mw.describeEndpoint(ep), d)
				}
			}
		}
	}
	for addr, sc := range now.state.Computes {
		if !configured[addr] {
			mw.failf("the state records %s (%s), which is not configured", addr, sc.EndpointID)
		}
	}
	return managed
}

// differs says how a live endpoint differs from its compute block ("" when
// it does not): by docs/configuration.md, an omitted attribute is the service's
// default (1 CU, suspend timeout 0 = 300 s, no settings, enabled).
func (mw *modelWalk) differs(p *modelProject, b *modelBranch, c *modelCompute, ep *api.Endpoint) string {
	var d []string
	typ := api.EndpointTypeReadOnly
	if c.rw {
		typ = api.EndpointTypeReadWrite
	}
	if ep.Type != typ {
		d = append(d, "is "+string(ep.Type))
	}
	if want := mw.branchIDs[p.id][b.label]; ep.BranchID != want {
		d = append(d, fmt.Sprintf("is on branch %s, not %s (%s)", ep.BranchID, b.label, want))
	}
	if ep.AutoscalingLimitMinCU != c.size.minCU || ep.AutoscalingLimitMaxCU != c.size.maxCU {
		d = append(d, fmt.Sprintf("has %g-%g CU, not %g-%g", ep.AutoscalingLimitMinCU, ep.AutoscalingLimitMaxCU, c.size.minCU, c.size.maxCU))
	}
	if effectiveTimeout(ep.SuspendTimeoutSeconds) != effectiveTimeout(c.suspend.seconds) {
		d = append(d, fmt.Sprintf("suspends after %d s, not %d", ep.SuspendTimeoutSeconds, c.suspend.seconds))
	}
	want := map[string]string{}
	for k, v := range c.settings {
		want[k] = strings.Trim(v, `"`) // a number or bool is the string HCL writes
	}
	if live := ep.Settings.PgSettings; !(len(live) == 0 && len(want) == 0) && !maps.Equal(live, want) {
		d = append(d, fmt.Sprintf("has pg_settings %v, not %v", live, want))
	}
	if ep.Disabled != c.disabled {
		d = append(d, fmt.Sprintf("has disabled=%v", ep.Disabled))
	}
	if want := c.wantName(ep.Name); ep.Name != want {
		d = append(d, fmt.Sprintf("is named %q, not %q", ep.Name, want))
	}
	return strings.Join(d, ", ")
}

// effectiveTimeout: 0 is the service's default, 300 s.
func effectiveTimeout(s int64) int64 {
	if s == 0 {
		return 300
	}
	return s
}

func stateHolds(st *state.State, endpointID string) string {
	for addr, c := range st.Computes {
		if c.EndpointID == endpointID {
			return addr
		}
	}
	return ""
}

// exclusive reports whether the configuration declares the branch exclusive.
func (mw *modelWalk) exclusive(branchID string) bool {
	for _, p := range mw.cfg.projects {
		for _, b := range p.branches {
			if mw.branchIDs[p.id][b.label] == branchID {
				return b.exclusive
			}
		}
	}
	return false
}

func (mw *modelWalk) describeEndpoint(ep api.Endpoint) string {
	return fmt.Sprintf("%s (%s %q on %s, %g-%g CU, %s)", ep.ID, ep.Type, ep.Name, ep.BranchID, ep.AutoscalingLimitMinCU, ep.AutoscalingLimitMaxCU, ep.CurrentState)
}

type keptEndpoint struct {
	id string
	rw bool
}

// checkKept checks that every compute block is the endpoint it was after
// the last step, whatever was renamed, moved, resized or changed outside
// (its host stays), unless its type changed or its endpoint was gone before
// the plan; and remembers the endpoints for the next step.
func (mw *modelWalk) checkKept(before modelSnapshot) {
	st := mw.readState()
	kept := map[*modelCompute]keptEndpoint{}
	for _, p := range mw.cfg.projects {
		for _, b := range p.branches {
			for _, c := range b.computes {
				sc := st.Computes[address(p, b, c)]
				if sc == nil {
					continue // checkConfigured says so
				}
				kept[c] = keptEndpoint{id: sc.EndpointID, rw: c.rw}
				was, ok := mw.kept[c]
				if _, stood := before.live[was.id]; ok && stood && was.rw == c.rw && was.id != sc.EndpointID {
					mw.failf("%s was %s and is now %s: a compute whose type did not change keeps its endpoint (and host)", address(p, b, c), was.id, sc.EndpointID)
				}
			}
		}
	}
	mw.kept = kept
}
