package api

import (
	"context"
	"net/http"
)

// ListMyOrganizations lists the organizations of a personal key's user (GET
// /users/me/organizations), to say which org_id to set; an organization or
// project-scoped key gets the service's 404.
func (c *Client) ListMyOrganizations(ctx context.Context) ([]Organization, error) {
	var out OrganizationsResponse
	if err := c.Do(ctx, http.MethodGet, "/users/me/organizations", nil, &out); err != nil {
		return nil, err
	}
	return out.Organizations, nil
}
