package apply

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// StaleError refuses a plan that no longer matches what it was made from:
// the state moved on, or the live endpoints changed. Nothing was changed.
//
// It wraps the reasons as a *diag.Error (errors.As finds it): one
// diagnostic each, about the compute it names when it names one, so
// `apply -json` reports them in the fields `validate -json` uses.
type StaleError struct {
	// Reasons name what changed, one sentence each, e.g.
	// "ep-x (shop.main.primary): max_cu is 4 now, was 2 when planned".
	Reasons []string
	// Diagnostics: the reasons as diagnostics (staleError makes them).
	Diagnostics diag.Diagnostics
}

// staleReason is one thing that changed since the plan, and the address of
// the compute it concerns ("" for the state or an endpoint no compute is).
type staleReason struct {
	address, text string
}

// replan is the command a stale plan's refusal suggests (rerun).
var replan = suggest.Run("plan")

// rerun is what a stale plan's refusal asks people to do.
var rerun = "Run " + replan.Quoted() + " again, review the new plan, and apply it."

// staleError is the refusal of a plan for reasons.
func staleError(reasons []staleReason) *StaleError {
	e := &StaleError{}
	for _, r := range reasons {
		e.Reasons = append(e.Reasons, r.text)
		e.Diagnostics = append(e.Diagnostics, diag.Diagnostic{Severity: diag.SeverityError, Summary: "Plan is stale",
			Detail: r.text + ". " + rerun, Address: r.address, Suggestions: []suggest.Command{replan}})
	}
	return e
}

// Unwrap is the refusal as diagnostics.
func (e *StaleError) Unwrap() error {
	if len(e.Diagnostics) == 0 {
		return nil
	}
	return &diag.Error{Diagnostics: e.Diagnostics, Message: e.Error()}
}

// Suggestions is the plan the refusal suggests.
func (e *StaleError) Suggestions() []suggest.Command { return []suggest.Command{replan} }

func (e *StaleError) Error() string {
	var b strings.Builder
	b.WriteString("the plan is stale, so nothing was changed:")
	for _, r := range e.Reasons {
		b.WriteString("\n  - " + r)
	}
	b.WriteString("\n" + rerun)
	return b.String()
}

// checkState compares the state the plan was made against with the stored one.
func checkState(p *diff.Plan, st *state.State, where string) []string {
	planned := p.State
	// A plan made when there was no state yet: the stored state is still
	// empty (serial 0), and its fresh lineage is not the one the plan saw,
	// since every read of a missing state makes a new one.
	if planned.Serial == 0 && st.Serial == 0 && len(st.Computes) == 0 {
		return nil
	}
	if planned.Serial == 0 {
		// The plan saw no state; one was written since (by another apply,
		// an import or a state command).
		return []string{fmt.Sprintf("the state in %s was written since the plan was made: it is at serial %d now, and there was none when planned "+
			"(another apply, import or state command ran in between)", where, st.Serial)}
	}
	if planned.Lineage != st.Lineage {
		return []string{fmt.Sprintf("the state in %s is another state (lineage %s) than the one the plan was made against (lineage %s): "+
			"was the plan made in another directory, or with another state file?", where, st.Lineage, orNone(planned.Lineage))}
	}
	switch {
	case st.Serial > planned.Serial:
		return []string{fmt.Sprintf("the state in %s changed since the plan was made: it is at serial %d now, was %d when planned "+
			"(another apply, import or state command ran in between)", where, st.Serial, planned.Serial)}
	case st.Serial < planned.Serial:
		return []string{fmt.Sprintf("the state in %s is older than the plan: it is at serial %d, but the plan was made at serial %d "+
			"(was it restored from a backup?)", where, st.Serial, planned.Serial)}
	}
	return nil
}

// stateReasons are checkState's reasons: about the state, no compute's.
func stateReasons(texts []string) []staleReason {
	out := make([]staleReason, len(texts))
	for i, t := range texts {
		out[i].text = t
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

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

func projectName(proj diff.Project) string {
	if proj.Label != "" {
		return proj.Label
	}
	return proj.ID
}

// checkLive compares the live endpoints now of each project read again
// (live) with those the plan recorded, and says what changed.
func checkLive(p *diff.Plan, live map[string][]api.Endpoint) []staleReason {
	var reasons []staleReason
	var sensitive map[string]diff.Secrets
	for _, proj := range p.Projects {
		now, read := live[proj.ID]
		if !read || diff.LiveDigest(now) == proj.LiveDigest {
			continue
		}
		if sensitive == nil {
			sensitive = p.SensitiveByEndpoint()
		}
		reasons = append(reasons, explainProject(p, proj, now, sensitive)...)
	}
	if len(reasons) > 0 {
		// An endpoint made since may bear a name from a sensitive variable
		// (another apply of the same configuration made it).
		secrets := p.SensitiveTexts()
		for i := range reasons {
			reasons[i].text = diff.HideTexts(reasons[i].text, secrets)
		}
	}
	return reasons
}

// checkDefaults reads again the compute defaults of each project whose
// defaults the plan changes, and says which changed since the plan read
// them (a change in the console): the plan would overwrite it unseen.
func checkDefaults(ctx context.Context, c *api.Client, p *diff.Plan, steps []diff.Step) ([]staleReason, error) {
	var reasons []staleReason
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
			reasons = append(reasons, staleReason{address: s.Address,
				text: fmt.Sprintf("the compute defaults of %s changed since the plan: %s %s -> %s", s.Address, a.Name, before, after)})
		}
	}
	return reasons, nil
}

// explainProject says what changed in one project since the plan: the
// endpoints created and deleted since, and each attribute that differs from
// what the plan recorded (by value: what the digest notices).
// sensitive is the plan's SensitiveByEndpoint.
func explainProject(p *diff.Plan, proj diff.Project, now []api.Endpoint, sensitive map[string]diff.Secrets) []staleReason {
	then := make(map[string]*diff.LiveEndpoint, len(proj.Endpoints))
	for i := range proj.Endpoints {
		then[proj.Endpoints[i].ID] = &proj.Endpoints[i]
	}
	nowByID := make(map[string]*api.Endpoint, len(now))
	for i := range now {
		nowByID[now[i].ID] = &now[i]
	}
	names := addressesOf(p)
	label := func(id string) string {
		if a := names[id]; a != "" {
			return fmt.Sprintf("%s (%s)", id, a)
		}
		return id
	}
	var reasons []staleReason
	for _, id := range slices.Sorted(maps.Keys(nowByID)) {
		if then[id] == nil {
			ep := nowByID[id]
			reasons = append(reasons, staleReason{text: fmt.Sprintf("%s: %s was created on branch %s since the plan", projectName(proj), describeEndpoint(ep), ep.BranchID)})
		}
	}
	for _, id := range slices.Sorted(maps.Keys(then)) {
		ep := nowByID[id]
		if ep == nil {
			reasons = append(reasons, staleReason{names[id], fmt.Sprintf("%s: %s was deleted since the plan", projectName(proj), label(id))})
			continue
		}
		var parts []string
		changed := diff.ExactDifferences(then[id].Values, diff.LiveValues(ep))
		diff.MarkSensitive(changed, sensitive[id])
		for _, a := range changed {
			before, after := a.Values()
			parts = append(parts, fmt.Sprintf("%s is %s now, was %s when planned", a.Name, after, before))
		}
		if len(parts) > 0 {
			reasons = append(reasons, staleReason{names[id], fmt.Sprintf("%s: %s", label(id), strings.Join(parts, ", "))})
		}
	}
	if len(reasons) == 0 {
		reasons = append(reasons, staleReason{text: fmt.Sprintf("%s (id %s): the live endpoints differ from the plan", projectName(proj), proj.ID)})
	}
	return reasons
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

func describeEndpoint(ep *api.Endpoint) string {
	s := fmt.Sprintf("%s (%s", ep.ID, ep.Type)
	if ep.Name != "" {
		s += fmt.Sprintf(" named %q", ep.Name)
	}
	return s + ")"
}
