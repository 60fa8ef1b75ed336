package diff

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

// Reader is what planning reads from the service. *api.Client satisfies it;
// tests pass a fake.
type Reader interface {
	ListEndpointSummaries(ctx context.Context, projectID string) ([]api.EndpointSummary, error)
	ListBranches(ctx context.Context, projectID string) ([]api.Branch, error)
}

// Live is what runs in the service, as read at plan time.
type Live struct {
	// Projects by project id.
	Projects map[string]*LiveProject
}

// LiveProject is the live endpoints of one project (all branches), and its
// branches when they were listed.
type LiveProject struct {
	ID string
	// Endpoints are what the plan records of them, in id order (RecordLive):
	// all the planner reads, and a third of the whole api.Endpoint each
	// (with 100,000 endpoints, 50 MB less while the plan is built).
	Endpoints []LiveEndpoint
	// Branches is nil when they were not listed: every branch block pins its
	// id, or finds its branch by name as the state records it (Known).
	Branches []api.Branch
	// Known are the ids of the branch blocks found by name, by block label,
	// as the state records them; used only when Branches is nil.
	Known map[string]string
}

// FetchOptions say how to read the live endpoints.
type FetchOptions struct {
	// Parallelism is how many projects are read at once (at least one).
	Parallelism int
	// RefreshBranches lists every project's branches, so that every branch
	// block is found by its name again.
	RefreshBranches bool
	// Progress, when set, is called after each project is read, with how
	// many are done and how many there are; calls may come from several
	// goroutines at once.
	Progress func(done, total int)
	// Scope: only the projects it reads (scope.go), as Build plans them.
	Scope Scope
}

// Fetch reads the live endpoints of every configured project (or those a
// scope reads: a target's, or for a destroy the state's): one
// list-endpoints call per project, plus one list-branches call only when some
// branch block of that project finds its branch by name and cannot take it
// from the state (branches.go). Projects are read in parallel. A project that
// does not exist or is not visible to the key is an error naming the project
// and pointing at its block.
func Fetch(ctx context.Context, r Reader, cfg *config.Config, st *state.State, opts FetchOptions) (*Live, hcl.Diagnostics) {
	projects := readProjects(cfg, st, opts.Scope)
	parallelism := max(opts.Parallelism, 1)
	recorded := recordedBranches(st)
	results := make([]*LiveProject, len(projects))
	failures := make([]*readFailure, len(projects))
	sem := make(chan struct{}, parallelism)
	var done atomic.Int64
	var wg sync.WaitGroup
	for i, p := range projects {
		var known map[string]string
		if !opts.RefreshBranches {
			known = knownBranches(p, recorded)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], failures[i] = fetchProject(ctx, r, p, known)
			if opts.Progress != nil {
				opts.Progress(int(done.Add(1)), len(projects))
			}
		}()
	}
	wg.Wait()

	live := &Live{Projects: make(map[string]*LiveProject, len(projects))}
	var failed []*readFailure
	for i, lp := range results {
		if failures[i] != nil {
			failed = append(failed, failures[i])
			continue
		}
		live.Projects[lp.ID] = lp
	}
	return live, readErrors(failed)
}

// fetchProject reads a project's endpoints, and its branches when some
// block finds its branch by name and known (nil: not known) does not say it,
// or says a branch on which no endpoint is live any more.
func fetchProject(ctx context.Context, r Reader, p *config.Project, known map[string]string) (*LiveProject, *readFailure) {
	eps, err := r.ListEndpointSummaries(ctx, p.ID)
	if err != nil {
		return nil, &readFailure{p, "endpoints", err}
	}
	lp := &LiveProject{ID: p.ID, Endpoints: recordSummaries(eps)}
	if !needsBranches(p) {
		return lp, nil
	}
	if known != nil {
		onBranch := make(map[string]bool, 2)
		for i := range eps {
			onBranch[eps[i].BranchID] = true
		}
		if stillThere(known, onBranch) {
			lp.Known = known
			return lp, nil
		}
	}
	brs, err := r.ListBranches(ctx, p.ID)
	if err != nil {
		return nil, &readFailure{p, "branches", err}
	}
	if brs == nil {
		brs = []api.Branch{} // fetched, and empty: not the same as "not fetched"
	}
	lp.Branches = brs
	return lp, nil
}

// needsBranches reports whether some branch of p is found by name, which takes
// the list of branches; a branch pinned by id needs no call. A branch rule
// needs the list: its instances are the branches it matches.
func needsBranches(p *config.Project) bool {
	if len(p.Rules) > 0 {
		return true
	}
	for _, b := range p.Branches {
		if b.ID == "" {
			return true
		}
	}
	return false
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
