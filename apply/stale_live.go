package apply

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// changedProjects are the planned projects that steps act on (by a call
// or in the state alone), in plan order.
func changedProjects(p *diff.Plan, steps []diff.Step) []diff.Project {
	acted := map[string]bool{}
	for _, s := range steps {
		acted[s.ProjectID] = true
	}
	var out []diff.Project
	for _, proj := range p.Projects {
		if acted[proj.ID] {
			out = append(out, proj)
		}
	}
	return out
}

// fetchLive re-reads the endpoints of projects, at most parallelism at once.
func fetchLive(ctx context.Context, c *api.Client, projects []diff.Project, parallelism int) (map[string][]api.Endpoint, error) {
	out := make(map[string][]api.Endpoint, len(projects))
	var mu sync.Mutex
	var firstErr error
	if parallelism <= 0 {
		parallelism = api.DefaultParallelReads
	}
	sem := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for _, proj := range projects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			eps, err := c.ListEndpoints(ctx, proj.ID)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("re-reading the endpoints of project %s (id %s) to check the plan is still current: %w; nothing was changed",
						projectName(proj), proj.ID, err)
				}
				return
			}
			out[proj.ID] = eps
		}()
	}
	wg.Wait()
	return out, firstErr
}

// checkLive compares the live endpoints now of each project read again
// (live) with those the plan recorded, and says what changed.
func checkLive(p *diff.Plan, live map[string][]api.Endpoint) []StaleFact {
	var facts []StaleFact
	var sensitive map[string]diff.Secrets
	for _, proj := range p.Projects {
		now, read := live[proj.ID]
		if !read || diff.LiveDigest(now) == proj.LiveDigest {
			continue
		}
		if sensitive == nil {
			sensitive = p.SensitiveByEndpoint()
		}
		facts = append(facts, explainProject(p, proj, now, sensitive)...)
	}
	if len(facts) > 0 {
		// An endpoint made since may bear a name from a sensitive variable
		// (another apply of the same configuration made it).
		secrets := p.SensitiveTexts()
		for i := range facts {
			facts[i].Name = diff.HideTexts(facts[i].Name, secrets)
		}
	}
	return facts
}

// checkDefaults reads again the compute defaults of each project whose
// defaults the plan changes, and says which changed since the plan read
// them (a change in the console): the plan would overwrite it unseen.
func checkDefaults(ctx context.Context, c *api.Client, p *diff.Plan, steps []diff.Step) ([]StaleFact, error) {
	var facts []StaleFact
	for _, s := range steps {
		if s.Kind != diff.StepDefaults {
			continue
		}
		now, err := c.ProjectDefaults(ctx, s.ProjectID)
		if err != nil {
			return nil, fmt.Errorf("reading the compute defaults of project %s again, before changing them: %w", s.ProjectID, err)
		}
		for _, a := range diff.DefaultsChangedSince(p, s.ProjectID, now) {
			before, after := a.Values()
			facts = append(facts, StaleFact{Kind: StaleDefaults, ProjectID: s.ProjectID, Address: s.Address, Attribute: a.Name, Was: before, Now: after})
		}
	}
	return facts, nil
}

// explainProject says what changed in one project since the plan: the
// endpoints created and deleted since, and each attribute that differs from
// what the plan recorded (by value: what the digest notices).
// sensitive is the plan's SensitiveByEndpoint.
func explainProject(p *diff.Plan, proj diff.Project, now []api.Endpoint, sensitive map[string]diff.Secrets) []StaleFact {
	then := make(map[string]*diff.LiveEndpoint, len(proj.Endpoints))
	for i := range proj.Endpoints {
		then[proj.Endpoints[i].ID] = &proj.Endpoints[i]
	}
	nowByID := make(map[string]*api.Endpoint, len(now))
	for i := range now {
		nowByID[now[i].ID] = &now[i]
	}
	names := addressesOf(p)
	base := StaleFact{Project: projectName(proj), ProjectID: proj.ID}
	var facts []StaleFact
	for _, id := range slices.Sorted(maps.Keys(nowByID)) {
		if then[id] == nil {
			ep := nowByID[id]
			f := base
			f.Kind, f.EndpointID, f.Type, f.Name, f.BranchID = StaleEndpointCreated, id, string(ep.Type), ep.Name, ep.BranchID
			facts = append(facts, f)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(then)) {
		f := base
		f.EndpointID, f.Address = id, names[id]
		ep := nowByID[id]
		if ep == nil {
			f.Kind = StaleEndpointDeleted
			facts = append(facts, f)
			continue
		}
		changed := diff.ExactDifferences(then[id].Values, diff.LiveValues(ep))
		diff.MarkSensitive(changed, sensitive[id])
		for _, a := range changed {
			f.Kind, f.Attribute = StaleAttribute, a.Name
			f.Was, f.Now = a.Values()
			facts = append(facts, f)
		}
	}
	if len(facts) == 0 {
		f := base
		f.Kind = StaleLive
		facts = append(facts, f)
	}
	return facts
}

// addressesOf maps endpoint ids to the addresses the plan gives them.
func addressesOf(p *diff.Plan) map[string]string {
	out := map[string]string{}
	for _, ch := range p.Changes {
		if ch.EndpointID != "" && out[ch.EndpointID] == "" {
			out[ch.EndpointID] = ch.Address
		}
	}
	for _, d := range p.Drift {
		if d.EndpointID != "" && out[d.EndpointID] == "" {
			out[d.EndpointID] = d.Address
		}
	}
	return out
}
