package command

import (
	"context"
	"sync"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/fetch"
)

// keptReads keeps the endpoint lists a plan reads through it, for an apply
// that carries the plan out at once (apply DIR -auto-approve, destroy
// -auto-approve): apply checks the plan against them instead of reading
// the projects again (apply.Options.PlanRead).
type keptReads struct {
	fetch.Reader
	mu    sync.Mutex
	lists map[string][]api.EndpointSummary
}

func (k *keptReads) ListEndpointSummaries(ctx context.Context, projectID string) ([]api.EndpointSummary, error) {
	eps, err := k.Reader.ListEndpointSummaries(ctx, projectID)
	if err == nil {
		k.mu.Lock()
		if k.lists == nil {
			k.lists = map[string][]api.EndpointSummary{}
		}
		k.lists[projectID] = eps
		k.mu.Unlock()
	}
	return eps, err
}

// forPlan is what apply.Options.PlanRead takes: the lists of the projects
// p changes, the only ones apply looks at (a plan of thousands of projects
// changes few).
func (k *keptReads) forPlan(p *diff.Plan) map[string][]api.Endpoint {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := map[string][]api.Endpoint{}
	for _, s := range p.Steps {
		sums, read := k.lists[s.ProjectID]
		if _, done := out[s.ProjectID]; done || !read {
			continue
		}
		out[s.ProjectID] = api.SummaryEndpoints(sums)
	}
	k.lists = nil
	return out
}
