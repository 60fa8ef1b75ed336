package fetch

import (
	"context"
	"sync"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

// firstReads are the reads of a project that do not depend on one another:
// its endpoints, its compute defaults when its block has a defaults block,
// and its branches when they are certainly needed (a block found by name
// that the state cannot say). They go out at once, so a project's plan
// waits for one answer, not for two or three in a row; which reads are sent
// is the same as when they went one after another. Only branches that
// depend on the endpoints (a recorded branch with no live endpoint left,
// stillThere) are read after them.
type firstReads struct {
	endpoints    []api.EndpointSummary
	endpointsErr error
	defaults     *api.DefaultEndpointSettings
	defaultsErr  error
	// branchesRead: the branches were read (withBranches), into branches or
	// branchesFailed.
	branchesRead   bool
	branches       []api.Branch
	branchesFailed *readFailure
}

// readAtOnce makes a project's first reads (firstReads) in parallel.
func readAtOnce(ctx context.Context, r Reader, p *config.Project, withBranches bool) firstReads {
	var out firstReads
	var wg sync.WaitGroup
	if withBranches {
		out.branchesRead = true
		wg.Go(func() { out.branches, out.branchesFailed = listBranches(ctx, r, p) })
	}
	if p.Defaults != nil {
		wg.Go(func() { out.defaults, out.defaultsErr = r.ProjectDefaults(ctx, p.ID) })
	}
	out.endpoints, out.endpointsErr = r.ListEndpointSummaries(ctx, p.ID)
	wg.Wait()
	return out
}
