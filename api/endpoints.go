package api

import (
	"context"
	"net/http"
)

// ListEndpoints returns the computes of a project, all branches (the service
// does not paginate this list).
func (c *Client) ListEndpoints(ctx context.Context, projectID string) ([]Endpoint, error) {
	path, err := projectPath(projectID, lit("endpoints"))
	if err != nil {
		return nil, err
	}
	var out EndpointsResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return compactList(out.Endpoints), nil
}

// ListEndpointSummaries returns what a plan reads of the computes of a
// project (EndpointSummary), from the answer ListEndpoints reads.
func (c *Client) ListEndpointSummaries(ctx context.Context, projectID string) ([]EndpointSummary, error) {
	path, err := projectPath(projectID, lit("endpoints"))
	if err != nil {
		return nil, err
	}
	var out endpointSummaries
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	for i := 1; i < len(out.Endpoints); i++ {
		ep, prev := &out.Endpoints[i], &out.Endpoints[i-1]
		share(&ep.BranchID, prev.BranchID)
		share(&ep.Type, prev.Type)
		share(&ep.CurrentState, prev.CurrentState)
	}
	return out.Endpoints, nil
}

// ListBranchEndpoints returns the computes of one branch.
func (c *Client) ListBranchEndpoints(ctx context.Context, projectID, branchID string) ([]Endpoint, error) {
	path, err := projectPath(projectID, lit("branches"), idPart("branch", branchID), lit("endpoints"))
	if err != nil {
		return nil, err
	}
	var out EndpointsResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return compactList(out.Endpoints), nil
}

// GetEndpoint returns one compute.
func (c *Client) GetEndpoint(ctx context.Context, projectID, endpointID string) (*Endpoint, error) {
	path, err := endpointPath(projectID, endpointID)
	if err != nil {
		return nil, err
	}
	var out EndpointResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return &out.Endpoint, nil
}

// CreateEndpoint creates a compute. The answer's operations start it; wait
// for them with WaitOperations before the next mutation of the project.
func (c *Client) CreateEndpoint(ctx context.Context, projectID string, ep EndpointCreate) (*EndpointOperations, error) {
	path, err := projectPath(projectID, lit("endpoints"))
	if err != nil {
		return nil, err
	}
	return c.endpointCall(ctx, http.MethodPost, path, EndpointCreateRequest{Endpoint: ep})
}

// UpdateEndpoint changes a compute; all attributes in one PATCH, so a size
// and a settings change restart it once.
func (c *Client) UpdateEndpoint(ctx context.Context, projectID, endpointID string, ep EndpointUpdate) (*EndpointOperations, error) {
	path, err := endpointPath(projectID, endpointID)
	if err != nil {
		return nil, err
	}
	return c.endpointCall(ctx, http.MethodPatch, path, EndpointUpdateRequest{Endpoint: ep})
}

// DeleteEndpoint deletes a compute. When the service answers 204 (the
// endpoint was already gone) it returns (nil, nil).
func (c *Client) DeleteEndpoint(ctx context.Context, projectID, endpointID string) (*EndpointOperations, error) {
	path, err := endpointPath(projectID, endpointID)
	if err != nil {
		return nil, err
	}
	return c.endpointCall(ctx, http.MethodDelete, path, nil)
}

// StartEndpoint wakes an idle compute.
func (c *Client) StartEndpoint(ctx context.Context, projectID, endpointID string) (*EndpointOperations, error) {
	return c.endpointAction(ctx, projectID, endpointID, "start")
}

// SuspendEndpoint suspends a compute, dropping its connections.
func (c *Client) SuspendEndpoint(ctx context.Context, projectID, endpointID string) (*EndpointOperations, error) {
	return c.endpointAction(ctx, projectID, endpointID, "suspend")
}

// RestartEndpoint restarts an active compute, dropping its connections.
func (c *Client) RestartEndpoint(ctx context.Context, projectID, endpointID string) (*EndpointOperations, error) {
	return c.endpointAction(ctx, projectID, endpointID, "restart")
}

func (c *Client) endpointAction(ctx context.Context, projectID, endpointID, action string) (*EndpointOperations, error) {
	path, err := projectPath(projectID, lit("endpoints"), idPart("endpoint", endpointID), lit(action))
	if err != nil {
		return nil, err
	}
	return c.endpointCall(ctx, http.MethodPost, path, nil)
}

// endpointCall sends a mutation answered by {endpoint, operations}, or 204.
func (c *Client) endpointCall(ctx context.Context, method, path string, body any) (*EndpointOperations, error) {
	var out EndpointOperations
	status, err := c.call(ctx, method, path, body, &out)
	if err != nil || status == http.StatusNoContent {
		return nil, err
	}
	return &out, nil
}

// endpointSummaries is the list ListEndpointSummaries reads.
type endpointSummaries struct {
	Endpoints []EndpointSummary `json:"endpoints"`
}

func endpointPath(projectID, endpointID string) (string, error) {
	return projectPath(projectID, lit("endpoints"), idPart("endpoint", endpointID))
}

// compactList is a decoded list of endpoints in a slice of its length
// (encoding/json grows one by doubling: room for 16 endpoints of 344 bytes
// for 10), the endpoints sharing the strings they repeat (project, branch,
// region, states...) instead of each holding its copy. A plan holds every
// project's list at once: this halves them (docs/PERFORMANCE.md).
func compactList(eps []Endpoint) []Endpoint {
	if eps == nil {
		return nil
	}
	out := make([]Endpoint, len(eps))
	copy(out, eps)
	for i := 1; i < len(out); i++ {
		ep, prev := &out[i], &out[i-1]
		share(&ep.ProjectID, prev.ProjectID)
		share(&ep.BranchID, prev.BranchID)
		share(&ep.RegionID, prev.RegionID)
		share(&ep.Type, prev.Type)
		share(&ep.CurrentState, prev.CurrentState)
		share(&ep.PendingState, prev.PendingState)
		share(&ep.PoolerMode, prev.PoolerMode)
		share(&ep.CreationSource, prev.CreationSource)
		share(&ep.ProxyHost, prev.ProxyHost)
		share(&ep.Provisioner, prev.Provisioner)
	}
	return out
}

// share makes *s the string prev when they are equal, so that only one copy
// of it stays in memory.
func share[S ~string](s *S, prev S) {
	if *s == prev {
		*s = prev
	}
}
