package api

import (
	"context"
	"net/http"
	"net/url"
)

// ListProjects returns every project the key can see, all pages: those of the
// client's organization when it has one (Options.OrgID).
func (c *Client) ListProjects(ctx context.Context) ([]ProjectListItem, error) {
	path := "/projects"
	if c.orgID != "" {
		path += "?" + url.Values{"org_id": {c.orgID}}.Encode()
	}
	return listAll(ctx, c, path, maxProjectsPage,
		func(p *ProjectsResponse) []ProjectListItem { return p.Projects },
		func(p *ProjectsResponse) string {
			if p.Pagination == nil {
				return ""
			}
			return p.Pagination.Cursor
		})
}

// GetProject returns one project.
func (c *Client) GetProject(ctx context.Context, projectID string) (*Project, error) {
	path, err := projectPath(projectID)
	if err != nil {
		return nil, err
	}
	var out ProjectResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return &out.Project, nil
}

// CreateProject creates a project with its default branch and primary compute,
// in the client's organization unless project names one.
func (c *Client) CreateProject(ctx context.Context, project ProjectCreate) (*ProjectCreated, error) {
	if project.OrgID == "" {
		project.OrgID = c.orgID
	}
	var out ProjectCreated
	if err := c.Do(ctx, http.MethodPost, "/projects", ProjectCreateRequest{Project: project}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListBranches returns every branch of a project, all pages (the newer
// CursorPagination: the answer's next goes back as cursor).
func (c *Client) ListBranches(ctx context.Context, projectID string) ([]Branch, error) {
	path, err := projectPath(projectID, lit("branches"))
	if err != nil {
		return nil, err
	}
	return listAll(ctx, c, path, maxBranchesPage,
		func(p *BranchesResponse) []Branch { return p.Branches },
		func(p *BranchesResponse) string {
			if p.Pagination == nil {
				return ""
			}
			return p.Pagination.Next
		})
}

// GetBranch returns one branch.
func (c *Client) GetBranch(ctx context.Context, projectID, branchID string) (*Branch, error) {
	path, err := projectPath(projectID, lit("branches"), idPart("branch", branchID))
	if err != nil {
		return nil, err
	}
	var out BranchResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return &out.Branch, nil
}

// CreateBranch creates a branch, with the computes req.Endpoints asks for.
func (c *Client) CreateBranch(ctx context.Context, projectID string, req BranchCreateRequest) (*BranchCreated, error) {
	path, err := projectPath(projectID, lit("branches"))
	if err != nil {
		return nil, err
	}
	var out BranchCreated
	if err := c.Do(ctx, http.MethodPost, path, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
