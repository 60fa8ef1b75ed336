package emulator

import (
	"net/http"
	"time"

	"github.com/neonform/neonform/api"
)

// listEndpoints is the hot path (plan fetches it for every project): the endpoints are
// copied under the project's read lock and encoded after it is released.
func (e *Emulator) listEndpoints(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	p.mu.RLock()
	eps := make([]api.Endpoint, 0, len(p.endpointOrder))
	for _, ep := range p.endpointOrder {
		eps = append(eps, ep.wire(c.now, false, false))
	}
	p.mu.RUnlock()
	return http.StatusOK, api.EndpointsResponse{Endpoints: eps}, nil
}

func (e *Emulator) listBranchEndpoints(c *call) (int, any, error) {
	return e.readBranch(c, func(p *project, b *branch) (any, error) {
		eps := []api.Endpoint{}
		for _, ep := range p.endpointOrder {
			if ep.BranchID == b.ID {
				eps = append(eps, ep.wire(c.now, false, false))
			}
		}
		return api.EndpointsResponse{Endpoints: eps}, nil
	})
}

func (e *Emulator) getEndpoint(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	id := c.param("endpoint_id")
	p.mu.RLock()
	defer p.mu.RUnlock()
	ep := p.endpoints[id]
	if ep == nil {
		return 0, nil, endpointNotFound(id)
	}
	return http.StatusOK, api.EndpointResponse{Endpoint: ep.wire(c.now, false, true)}, nil
}

// lockProject finds the request's project and locks it for a change. The caller unlocks.
func (e *Emulator) lockProject(c *call) (*project, error) {
	p, err := e.project(c)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.deleted {
		p.mu.Unlock()
		return nil, projectNotFound(p.ID)
	}
	return p, nil
}

// createEndpoint adds a compute to a branch (201): init, pending active, with a
// start_compute operation. What the body leaves out comes from the project's
// default_endpoint_settings, then the service's defaults. The checks run in this order:
// the body (400), the project (404), the size for the account's plan (400), the branch
// (404, 422 while it is being created), running operations (423), one read_write per
// branch (409).
func (e *Emulator) createEndpoint(c *call) (int, any, error) {
	var body endpointBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	if body.Endpoint == nil {
		return 0, nil, badRequest(`the body needs an "endpoint" object, e.g. {"endpoint":{"branch_id":"br-...","type":"read_write"}}`)
	}
	if _, err := body.Endpoint.createSpec(nil); err != nil {
		return 0, nil, err
	}
	p, err := e.lockProject(c)
	if err != nil {
		return 0, nil, err
	}
	spec, err := body.Endpoint.createSpec(p.Defaults)
	if err != nil {
		p.mu.Unlock()
		return 0, nil, err
	}
	out, err := e.createEndpointLocked(p, body.Endpoint.RegionID, spec, c.now)
	p.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, out, e.save()
}

func (e *Emulator) createEndpointLocked(p *project, region *string, spec computeSpec, now time.Time) (api.EndpointOperations, error) {
	if region != nil && *region != p.RegionID {
		return api.EndpointOperations{}, badRequest("region_id %q is not the project's region; only %s is permitted (or leave region_id out)", *region, p.RegionID)
	}
	if err := checkSize(spec.minCU, spec.maxCU, p.Tier); err != nil {
		return api.EndpointOperations{}, err
	}
	if err := checkPlanSuspend(spec.suspendTimeout, p.Tier); err != nil {
		return api.EndpointOperations{}, err
	}
	if err := checkAutoscalingProvisioner(spec.provisioner, spec.minCU, spec.maxCU); err != nil {
		return api.EndpointOperations{}, err
	}
	b := p.branches[spec.branchID]
	switch {
	case b == nil:
		return api.EndpointOperations{}, branchNotFound(spec.branchID)
	case !b.ready(now):
		return api.EndpointOperations{}, errorf(http.StatusUnprocessableEntity, codeNotReady, "branch not ready yet")
	case p.busy(now):
		return api.EndpointOperations{}, locked()
	}
	if spec.typ == api.EndpointTypeReadWrite {
		if rw := p.readWriteOn(b.ID); rw != nil {
			return api.EndpointOperations{}, conflict(codeReadWriteExists,
				"branch %s already has a read_write endpoint (%s); a branch can have only one. Delete it or move it to another branch first, or create a read_only endpoint",
				b.ID, rw.ID)
		}
	}
	ep := e.newEndpoint(p, spec, now)
	p.addEndpoint(ep)
	ops := e.startChain(p, now, opStep{action: api.ActionStartCompute, branchID: b.ID, endpointID: ep.ID})
	to := api.EndpointStateActive
	if spec.disabled {
		to = api.EndpointStateIdle // a disabled compute refuses connections, so it does not stay up
	}
	ep.Life = lifecycle{From: api.EndpointStateInit, To: to, At: chainEnd(ops, now)}
	p.UpdatedAt = now
	return api.EndpointOperations{Endpoint: ep.wire(now, true, true), Operations: wireOps(ops, now, true)}, nil
}

// newEndpoint builds a compute with a fresh id; the caller adds it and orders its start.
func (e *Emulator) newEndpoint(p *project, s computeSpec, now time.Time) *endpoint {
	id := e.ids.endpointID()
	for !e.w.claimEndpointID(id, p.ID) {
		id = e.ids.endpointID()
	}
	proxy, _ := regionHost(p.RegionID)
	return &endpoint{
		ID: id, ProjectID: p.ID, BranchID: s.branchID, Name: s.name, Type: s.typ, RegionID: p.RegionID,
		Host: id + "." + proxy, ProxyHost: proxy, MinCU: s.minCU, MaxCU: s.maxCU, PgSettings: s.pgSettings,
		PgbouncerSettings: s.pgbouncerSettings, PreloadLibraries: s.preloadLibraries,
		PoolerEnabled: s.poolerEnabled, PoolerMode: s.poolerMode, Disabled: s.disabled, PasswordlessAccess: s.passwordless,
		Provisioner: s.provisioner, SuspendTimeout: s.suspendTimeout, CreationSource: "api", CreatedAt: now, UpdatedAt: now,
		Life: lifecycle{From: api.EndpointStateInit, To: api.EndpointStateInit, At: now},
	}
}
