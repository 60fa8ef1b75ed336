package diff

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

// Reader is what planning reads from the service. *api.Client satisfies it;
// tests pass a fake.
type Reader interface {
	ListEndpoints(ctx context.Context, projectID string) ([]api.Endpoint, error)
	ListBranches(ctx context.Context, projectID string) ([]api.Branch, error)
}

// Live is what runs in the service, as read at plan time.
type Live struct {
	// Projects by project id.
	Projects map[string]*LiveProject
}

// LiveProject is the live endpoints of one project (all branches), and its
// branches when a branch block names a branch rather than pinning its id.
type LiveProject struct {
	ID        string
	Endpoints []api.Endpoint
	// Branches is nil when it was not fetched (every branch pinned by id).
	Branches []api.Branch
}

// Fetch reads the live endpoints of every configured project: one
// list-endpoints call per project, plus one list-branches call only when some
// branch of that project is named rather than pinned by id. Projects are read
// in parallel, at most parallelism at once (at least one). A project that
// does not exist or is not visible to the key is an error naming the project
// and pointing at its block.
func Fetch(ctx context.Context, r Reader, cfg *config.Config, parallelism int) (*Live, hcl.Diagnostics) {
	projects := uniqueProjects(cfg)
	if parallelism < 1 {
		parallelism = 1
	}
	results := make([]*LiveProject, len(projects))
	diags := make([]*hcl.Diagnostic, len(projects))
	sem := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for i, p := range projects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], diags[i] = fetchProject(ctx, r, p)
		}()
	}
	wg.Wait()

	live := &Live{Projects: make(map[string]*LiveProject, len(projects))}
	var out hcl.Diagnostics
	for i, lp := range results {
		if diags[i] != nil {
			out = append(out, diags[i])
			continue
		}
		live.Projects[lp.ID] = lp
	}
	return live, out
}

func fetchProject(ctx context.Context, r Reader, p *config.Project) (*LiveProject, *hcl.Diagnostic) {
	eps, err := r.ListEndpoints(ctx, p.ID)
	if err != nil {
		return nil, readError(p, "endpoints", err)
	}
	lp := &LiveProject{ID: p.ID, Endpoints: eps}
	if needsBranches(p) {
		brs, err := r.ListBranches(ctx, p.ID)
		if err != nil {
			return nil, readError(p, "branches", err)
		}
		if brs == nil {
			brs = []api.Branch{} // fetched, and empty: not the same as "not fetched"
		}
		lp.Branches = brs
	}
	return lp, nil
}

// needsBranches reports whether some branch of p is found by name, which takes
// the list of branches; a branch pinned by id needs no call.
func needsBranches(p *config.Project) bool {
	for _, b := range p.Branches {
		if b.ID == "" {
			return true
		}
	}
	return false
}

func readError(p *config.Project, what string, err error) *hcl.Diagnostic {
	rng := p.DeclRange
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Subject: &rng}
	switch status := api.StatusOf(err); status {
	case http.StatusNotFound, http.StatusForbidden:
		d.Summary = "Project not found"
		d.Detail = fmt.Sprintf("Project %q (id %q) does not exist, or the API key cannot see it. "+
			"Check the id in the project block, and that NEON_API_KEY belongs to an account that can see the project "+
			"(a project-scoped key sees only its own project). The service answered %s.", p.Label, p.ID, serviceAnswer(err))
	case http.StatusUnauthorized:
		d.Summary = "API key refused"
		d.Detail = fmt.Sprintf("Reading project %q (id %q) was refused: set NEON_API_KEY to a valid key that has not been revoked. The service answered %s.",
			p.Label, p.ID, serviceAnswer(err))
	default:
		d.Summary = "Cannot read project " + p.Label
		d.Detail = fmt.Sprintf("Listing the %s of project %q (id %q) failed: %v. Nothing was changed; run the plan again.", what, p.Label, p.ID, err)
	}
	return d
}

// uniqueProjects returns the configured projects sorted by id, each id once.
// (The config forbids two blocks with one id; this only keeps Fetch safe.)
func uniqueProjects(cfg *config.Config) []*config.Project {
	seen := map[string]bool{}
	var out []*config.Project
	for _, p := range cfg.Projects {
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *config.Project) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// serviceAnswer is the call and what the service said, without the hint the
// API error adds (the diagnostic gives its own): "GET /projects/p/endpoints:
// 404 Not Found: project not found (request id r1)".
func serviceAnswer(err error) string {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return err.Error()
	}
	text := fmt.Sprintf("%s %s: %d %s", ae.Method, ae.Path, ae.StatusCode, http.StatusText(ae.StatusCode))
	if ae.Message != "" {
		text += ": " + ae.Message
	}
	if ae.RequestID != "" {
		text += " (request id " + ae.RequestID + ")"
	}
	return text
}
