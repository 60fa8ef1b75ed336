package api

import (
	"context"
	"net/http"
	"net/url"
)

// ListDatabases returns the Postgres databases of a branch (the service does
// not paginate this list).
func (c *Client) ListDatabases(ctx context.Context, projectID, branchID string) ([]Database, error) {
	path, err := projectPath(projectID, lit("branches"), idPart("branch", branchID), lit("databases"))
	if err != nil {
		return nil, err
	}
	var out DatabasesResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return out.Databases, nil
}

// ConnectionURI returns the URI of a branch's database, as role, through one
// of the branch's endpoints: the one psql and pgx connect with. It holds the
// role's password.
func (c *Client) ConnectionURI(ctx context.Context, projectID, branchID, endpointID, database, role string) (string, error) {
	path, err := projectPath(projectID, lit("connection_uri"))
	if err != nil {
		return "", err
	}
	if err := checkID("branch", branchID); err != nil {
		return "", err
	}
	if err := checkID("endpoint", endpointID); err != nil {
		return "", err
	}
	q := url.Values{"branch_id": {branchID}, "endpoint_id": {endpointID}, "database_name": {database}, "role_name": {role}}
	var out ConnectionURIResponse
	if err := c.Do(ctx, http.MethodGet, path+"?"+q.Encode(), nil, &out); err != nil {
		return "", err
	}
	return out.URI, nil
}
