package fetch

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// Reader is what planning reads from the service. *api.Client satisfies it;
// tests pass a fake.
type Reader interface {
	ListEndpointSummaries(ctx context.Context, projectID string) ([]api.EndpointSummary, error)
	ListBranches(ctx context.Context, projectID string) ([]api.Branch, error)
	ProjectDefaults(ctx context.Context, projectID string) (*api.DefaultEndpointSettings, error)
}

// Options say how to read the live endpoints.
type Options struct {
	// Parallelism is how many projects are read at once: 0 =
	// api.DefaultParallelReads.
	Parallelism int
	// RefreshBranches lists every project's branches, so that every branch
	// block is found by its name again.
	RefreshBranches bool
	// Progress, when set, is called after each project is read, with how
	// many are done and how many there are; calls may come from several
	// goroutines at once.
	Progress func(done, total int)
	// Scope: only the projects it reads (diff.ProjectsToRead), as Build plans them.
	Scope diff.Scope
}

// Live reads the live endpoints of every configured project (or those a
// scope reads: a target's, or for a destroy the state's): one
// list-endpoints call per project, plus one list-branches call only when some
// branch block of that project finds its branch by name and cannot take it
// from the state (branches.go). Projects are read in parallel. A project that
// does not exist or is not visible to the key is an error naming the project
// and pointing at its block.
func Live(ctx context.Context, r Reader, cfg *config.Config, st *state.State, opts Options) (*diff.Live, diag.Diagnostics) {
	projects := diff.ProjectsToRead(cfg, st, opts.Scope)
	parallelism := opts.Parallelism
	if parallelism <= 0 {
		parallelism = api.DefaultParallelReads
	}
	recorded := recordedBranches(st)
	results := make([]*diff.LiveProject, len(projects))
	failures := make([]*readFailure, len(projects))
	refused := make([]diag.Diagnostics, len(projects))
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
			results[i], failures[i], refused[i] = fetchProject(ctx, r, p, known, st, opts.Scope)
			if opts.Progress != nil {
				opts.Progress(int(done.Add(1)), len(projects))
			}
		}()
	}
	wg.Wait()

	live := &diff.Live{Projects: make(map[string]*diff.LiveProject, len(projects))}
	var failed []*readFailure
	var targets diag.Diagnostics
	for i, lp := range results {
		switch {
		case failures[i] != nil:
			failed = append(failed, failures[i])
		case refused[i] != nil:
			targets = append(targets, refused[i]...)
		default:
			live.Projects[lp.ID] = lp
		}
	}
	return live, append(diag.FromHCL(readErrors(failed)), targets...)
}

// fetchProject reads a project's endpoints, and its branches when some
// block finds its branch by name and known (nil: not known) does not say it
// (at once with the endpoints: readAtOnce), or says a branch on which no
// endpoint is live any more (after them). A project one of
// whose branch rules a -target or -replace names has its branches read
// first: an address that hits nothing is refused with them, and its
// endpoints are not read (diff.CheckRuleTargets).
func fetchProject(ctx context.Context, r Reader, p *config.Project, known map[string]string, st *state.State, s diff.Scope) (*diff.LiveProject, *readFailure, diag.Diagnostics) {
	if diff.RuleTargeted(p, s) {
		brs, f := listBranches(ctx, r, p)
		if f != nil {
			return nil, f, nil
		}
		if diags := diff.CheckRuleTargets(p, brs, st, s); diags.HasErrors() {
			return nil, nil, diags
		}
		eps, err := r.ListEndpointSummaries(ctx, p.ID)
		if err != nil {
			return nil, &readFailure{p, "endpoints", err}, nil
		}
		return &diff.LiveProject{ID: p.ID, Endpoints: diff.RecordSummaries(eps), Branches: brs}, nil, nil
	}
	first := readAtOnce(ctx, r, p, needsBranches(p) && known == nil)
	if first.endpointsErr != nil {
		return nil, &readFailure{p, "endpoints", first.endpointsErr}, nil
	}
	eps := first.endpoints
	lp := &diff.LiveProject{ID: p.ID, Endpoints: diff.RecordSummaries(eps), Defaults: first.defaults}
	if first.defaultsErr != nil {
		return nil, &readFailure{p, "compute defaults", first.defaultsErr}, nil
	}
	switch {
	case !needsBranches(p):
		return lp, nil, nil
	case first.branchesRead:
		if first.branchesFailed != nil {
			return nil, first.branchesFailed, nil
		}
		lp.Branches = first.branches
		return lp, nil, nil
	}
	onBranch := make(map[string]bool, 2)
	for i := range eps {
		onBranch[eps[i].BranchID] = true
	}
	if stillThere(known, onBranch) {
		lp.Known = known
		return lp, nil, nil
	}
	brs, f := listBranches(ctx, r, p)
	if f != nil {
		return nil, f, nil
	}
	lp.Branches = brs
	return lp, nil, nil
}

// listBranches lists a project's branches: never nil, as "fetched, and
// empty" is not "not fetched".
func listBranches(ctx context.Context, r Reader, p *config.Project) ([]api.Branch, *readFailure) {
	brs, err := r.ListBranches(ctx, p.ID)
	if err != nil {
		return nil, &readFailure{p, "branches", err}
	}
	if brs == nil {
		brs = []api.Branch{}
	}
	return brs, nil
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
