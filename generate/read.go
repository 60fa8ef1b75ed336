package generate

import (
	"context"
	"fmt"
	"slices"

	"github.com/neonform/neonform/api"
)

// Reader is what generate reads from the service. *api.Client satisfies it;
// tests may pass a fake.
type Reader interface {
	ListProjects(ctx context.Context) ([]api.ProjectListItem, error)
	GetProject(ctx context.Context, projectID string) (*api.Project, error)
	ListBranches(ctx context.Context, projectID string) ([]api.Branch, error)
	ListEndpoints(ctx context.Context, projectID string) ([]api.Endpoint, error)
}

// Project is one live project as generate reads it: its name, every branch
// and every endpoint.
type Project struct {
	ID, Name  string
	Branches  []api.Branch
	Endpoints []api.Endpoint
}

// Read reads the projects with the given ids, in that order, or with all set
// every project the key can see (every page). A project the key cannot see
// is an error that names it.
func Read(ctx context.Context, r Reader, ids []string, all bool) ([]*Project, error) {
	var out []*Project
	if all {
		items, err := r.ListProjects(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing the projects: %w", err)
		}
		for _, it := range items {
			out = append(out, &Project{ID: it.ID, Name: it.Name})
		}
	} else {
		for _, id := range ids {
			if slices.ContainsFunc(out, func(p *Project) bool { return p.ID == id }) {
				continue // named twice
			}
			p, err := r.GetProject(ctx, id)
			if api.IsNotFound(err) {
				return nil, fmt.Errorf("project %s: the API key sees no such project. Check the id (the console shows it in the project's settings), or list the projects the key sees with -all", id)
			}
			if err != nil {
				return nil, fmt.Errorf("reading project %s: %w", id, err)
			}
			out = append(out, &Project{ID: p.ID, Name: p.Name})
		}
	}
	for _, p := range out {
		var err error
		if p.Branches, err = r.ListBranches(ctx, p.ID); err != nil {
			return nil, fmt.Errorf("listing the branches of project %s: %w", p.ID, err)
		}
		if p.Endpoints, err = r.ListEndpoints(ctx, p.ID); err != nil {
			return nil, fmt.Errorf("listing the endpoints of project %s: %w", p.ID, err)
		}
	}
	return out, nil
}
