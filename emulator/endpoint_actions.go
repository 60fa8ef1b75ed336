package emulator

import (
	"maps"
	"net/http"
	"reflect"
	"time"

	"github.com/neonform/neonform/api"
)

// What a PATCH does to a compute (docs/service.md, States and operations). Every accepted
// PATCH starts an apply_config operation. Then:
//   - branch_id to another branch, or disabled false -> true, suspends it: a
//     suspend_compute operation (scheduling) follows, and the answer shows current and
//     pending state idle. It stays idle until started (a disabled one until enabled).
//   - on an idle compute, any accepted change does the same: the compute becomes active
//     for a short time to apply it and the control plane suspends it again (the
//     OpenAPI description of the call, its example answer).
//   - a new size (min or max CU), new pg_settings, preload_libraries or provisioner
//     restart an active compute: current active, pending active until apply_config
//     finishes; connections drop.
//   - name, suspend_timeout_seconds, pooler and passwordless settings,
//     pgbouncer_settings, disabled true -> false change nothing for running clients.

func (e *Emulator) updateEndpoint(c *call) (int, any, error) {
	var body endpointBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	f := body.Endpoint
	if f == nil {
		return 0, nil, badRequest(`the body needs an "endpoint" object with the attributes to change, e.g. {"endpoint":{"suspend_timeout_seconds":300}}`)
	}
	if f.Type != nil {
		return 0, nil, badRequest("type cannot be changed: an endpoint stays read_write or read_only; create a new endpoint of the other type and delete this one")
	}
	if f.RegionID != nil {
		return 0, nil, badRequest("region_id cannot be changed: an endpoint stays in its project's region")
	}
	if err := f.check(); err != nil {
		return 0, nil, err
	}
	p, err := e.lockProject(c)
	if err != nil {
		return 0, nil, err
	}
	out, err := e.updateLocked(p, c.param("endpoint_id"), f, c.now)
	p.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, out, e.save()
}

func (e *Emulator) updateLocked(p *project, id string, f *endpointFields, now time.Time) (api.EndpointOperations, error) {
	var none api.EndpointOperations
	ep := p.endpoints[id]
	if ep == nil {
		return none, endpointNotFound(id)
	}
	next := *ep
	setIf(&next.MinCU, f.AutoscalingLimitMinCU)
	setIf(&next.MaxCU, f.AutoscalingLimitMaxCU)
	setIf(&next.Provisioner, f.Provisioner)
	setIf(&next.SuspendTimeout, f.SuspendTimeoutSeconds)
	if err := checkSize(next.MinCU, next.MaxCU, p.Tier); err != nil {
		return none, err
	}
	if err := f.checkScaleToZero(next.MinCU, next.MaxCU); err != nil {
		return none, err
	}
	if f.SuspendTimeoutSeconds != nil {
		if err := checkPlanSuspend(next.SuspendTimeout, p.Tier); err != nil {
			return none, err
		}
	}
	if err := checkAutoscalingProvisioner(next.Provisioner, next.MinCU, next.MaxCU); err != nil {
		return none, err
	}
	if f.BranchID != nil && p.branches[*f.BranchID] == nil {
		return none, branchNotFound(*f.BranchID)
	}
	if p.busy(now) {
		return none, locked()
	}
	moves := f.BranchID != nil && *f.BranchID != ep.BranchID
	if moves {
		if !p.branches[*f.BranchID].ready(now) {
			return none, errorf(http.StatusUnprocessableEntity, codeNotReady, "branch not ready yet")
		}
		if rw := p.readWriteOn(*f.BranchID); ep.Type == api.EndpointTypeReadWrite && rw != nil {
			return none, conflict(codeReadWriteExists,
				"branch %s already has a read_write endpoint (%s); a branch can have only one. Move or delete that one first",
				*f.BranchID, rw.ID)
		}
		next.BranchID = *f.BranchID
	}
	setIf(&next.Name, f.Name)
	setIf(&next.PoolerEnabled, f.PoolerEnabled)
	setIf(&next.PoolerMode, f.PoolerMode)
	setIf(&next.PasswordlessAccess, f.PasswordlessAccess)
	setIf(&next.Disabled, f.Disabled)
	if f.Settings != nil {
		next.applySettings(f.Settings)
	}
	wasIdle := ep.view(now, false).current == api.EndpointStateIdle
	suspends := moves || (next.Disabled && !ep.Disabled) || wasIdle
	restarts := next.MinCU != ep.MinCU || next.MaxCU != ep.MaxCU || next.Provisioner != ep.Provisioner ||
		!maps.Equal(next.PgSettings, ep.PgSettings) || !reflect.DeepEqual(next.PreloadLibraries, ep.PreloadLibraries)

	steps := []opStep{{action: api.ActionApplyConfig, branchID: next.BranchID, endpointID: ep.ID}}
	if suspends {
		steps = append(steps, opStep{action: api.ActionSuspendCompute, branchID: next.BranchID, endpointID: ep.ID})
	}
	ops := e.startChain(p, now, steps...)
	end := chainEnd(ops, now)
	switch {
	case suspends:
		next.transition(now, api.EndpointStateIdle, api.EndpointStateIdle, end)
	case restarts:
		next.transition(now, api.EndpointStateActive, api.EndpointStateActive, end)
	}
	next.UpdatedAt = now
	*ep = next
	if suspends || restarts {
		e.dropSessions(ep)
	}
	p.UpdatedAt = now
	return api.EndpointOperations{Endpoint: ep.wire(now, true, true), Operations: wireOps(ops, now, true)}, nil
}

// applySettings takes the parts of an update's settings that were sent: "settings": {}
// changes nothing (the Terraform provider sends back the {} it read with every update),
// and pg_settings, pgbouncer_settings or preload_libraries each replace the compute's.
func (ep *endpoint) applySettings(in *settingsBody) {
	if in.PgSettings != nil {
		ep.PgSettings = maps.Clone(in.PgSettings)
	}
	if in.PgbouncerSettings != nil {
		ep.PgbouncerSettings = maps.Clone(in.PgbouncerSettings)
	}
	if in.PreloadLibraries != nil {
		ep.PreloadLibraries = in.PreloadLibraries.wire()
	}
}

// deleteEndpoint removes a compute: 200 with its last record and the
// suspend_compute operation that stops it, which holds the project like any
// operation (the API reference's example answer of deleteProjectEndpoint;
// docs/service.md, Requests and defaults); 204 when it does not exist or is
// already gone. The endpoint leaves the lists at once.
func (e *Emulator) deleteEndpoint(c *call) (int, any, error) {
	p, err := e.lockProject(c)
	if err != nil {
		return 0, nil, err
	}
	id := c.param("endpoint_id")
	ep := p.endpoints[id]
	if ep == nil {
		p.mu.Unlock()
		return http.StatusNoContent, nil, nil
	}
	if p.busy(c.now) {
		p.mu.Unlock()
		return 0, nil, locked()
	}
	last := ep.wire(c.now, false, false)
	ops := e.startChain(p, c.now, opStep{action: api.ActionSuspendCompute, branchID: ep.BranchID, endpointID: ep.ID})
	e.dropSessions(ep)
	p.removeEndpoint(id)
	e.w.forgetEndpoint(id)
	p.UpdatedAt = c.now
	out := api.EndpointOperations{Endpoint: last, Operations: wireOps(ops, c.now, true)}
	p.mu.Unlock()
	return http.StatusOK, out, e.save()
}

// endpointAction runs start, suspend or restart on a locked project's endpoint.
func (e *Emulator) endpointAction(c *call, act func(p *project, ep *endpoint, now time.Time) ([]*operation, error)) (int, any, error) {
	p, err := e.lockProject(c)
	if err != nil {
		return 0, nil, err
	}
	id := c.param("endpoint_id")
	ep := p.endpoints[id]
	if ep == nil {
		p.mu.Unlock()
		return 0, nil, endpointNotFound(id)
	}
	if p.busy(c.now) {
		p.mu.Unlock()
		return 0, nil, locked()
	}
	ops, err := act(p, ep, c.now)
	if err != nil {
		p.mu.Unlock()
		return 0, nil, err
	}
	out := api.EndpointOperations{Endpoint: ep.wire(c.now, true, true), Operations: wireOps(ops, c.now, true)}
	p.mu.Unlock()
	return http.StatusOK, out, e.save()
}

// startEndpoint wakes an idle compute (start_compute; active when it finishes). On an
// active compute it counts as activity. A disabled compute cannot be started.
func (e *Emulator) startEndpoint(c *call) (int, any, error) {
	return e.endpointAction(c, func(p *project, ep *endpoint, now time.Time) ([]*operation, error) {
		if ep.Disabled {
			return nil, conflict(codeDisabled, "endpoint %s is disabled; enable it with PATCH {\"endpoint\":{\"disabled\":false}} first", ep.ID)
		}
		idle := ep.view(now, false).current == api.EndpointStateIdle
		ops := e.startChain(p, now, opStep{action: api.ActionStartCompute, branchID: ep.BranchID, endpointID: ep.ID})
		if idle {
			ep.transition(now, api.EndpointStateIdle, api.EndpointStateActive, chainEnd(ops, now))
		} else {
			ep.touch(now)
		}
		return ops, nil
	})
}

// activity is a client query or connection: it wakes an idle compute, as the service's
// proxy does (start_compute, which a running chain does not block), and otherwise
// pushes the compute's suspend back. Caller holds p.mu for writing.
func (e *Emulator) activity(p *project, ep *endpoint, now time.Time) error {
	if ep.Disabled {
		return conflict(codeDisabled, "endpoint %s is disabled and refuses connections", ep.ID)
	}
	// A compute being suspended (pending idle) is woken after the suspend, as an idle one.
	if v := ep.view(now, false); v.current != api.EndpointStateIdle && v.pending != api.EndpointStateIdle {
		ep.touch(now)
		return nil
	}
	ops := e.startChain(p, now, opStep{action: api.ActionStartCompute, branchID: ep.BranchID, endpointID: ep.ID})
	ep.transition(now, api.EndpointStateIdle, api.EndpointStateActive, chainEnd(ops, now))
	e.endRun(ep) // it was stopped, however it stopped
	return nil
}

// suspendEndpoint suspends an active compute (suspend_compute; idle when it finishes).
func (e *Emulator) suspendEndpoint(c *call) (int, any, error) {
	return e.endpointAction(c, func(p *project, ep *endpoint, now time.Time) ([]*operation, error) {
		ops := e.startChain(p, now, opStep{action: api.ActionSuspendCompute, branchID: ep.BranchID, endpointID: ep.ID})
		if ep.view(now, false).current == api.EndpointStateActive {
			ep.transition(now, api.EndpointStateActive, api.EndpointStateIdle, chainEnd(ops, now))
		}
		e.dropSessions(ep)
		return ops, nil
	})
}

// restartEndpoint restarts an active compute (suspend_compute then start_compute);
// connections drop. It works only on an active compute (docs/service.md, States and operations).
func (e *Emulator) restartEndpoint(c *call) (int, any, error) {
	return e.endpointAction(c, func(p *project, ep *endpoint, now time.Time) ([]*operation, error) {
		if cur := ep.view(now, false).current; cur != api.EndpointStateActive {
			return nil, conflict(codeNotActive,
				"endpoint %s is %s: restart works only on an active compute; wake it first with POST /projects/%s/endpoints/%s/start or a connection",
				ep.ID, cur, p.ID, ep.ID)
		}
		ops := e.startChain(p, now,
			opStep{action: api.ActionSuspendCompute, branchID: ep.BranchID, endpointID: ep.ID},
			opStep{action: api.ActionStartCompute, branchID: ep.BranchID, endpointID: ep.ID})
		ep.transition(now, api.EndpointStateActive, api.EndpointStateActive, chainEnd(ops, now))
		e.dropSessions(ep)
		return ops, nil
	})
}
