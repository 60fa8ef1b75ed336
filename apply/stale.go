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
	"github.com/neonform/neonform/state"
)

// StaleError refuses a plan that no longer matches what it was made from:
// the state moved on, or the live endpoints changed. Nothing was changed.
type StaleError struct {
	// Reasons name what changed, one sentence each, e.g.
	// "ep-x (shop.main.primary): max_cu is 4 now, was 2 when planned".
	Reasons []string
}

func (e *StaleError) Error() string {
	var b strings.Builder
	b.WriteString("the plan is stale, so nothing was changed:")
	for _, r := range e.Reasons {
		b.WriteString("\n  - " + r)
	}
	b.WriteString("\nRun `neonform plan` again, review the new plan, and apply it.")
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

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// fetchLive re-reads the endpoints of every planned project, at most
// parallelism at once.
func fetchLive(ctx context.Context, c *api.Client, p *diff.Plan, parallelism int) (map[string][]api.Endpoint, error) {
	out := make(map[string][]api.Endpoint, len(p.Projects))
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for _, proj := range p.Projects {
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

// checkLive compares each planned project's live endpoints now with its
// digest at plan time, and explains every difference it can.
func checkLive(p *diff.Plan, st *state.State, live map[string][]api.Endpoint) []string {
	var reasons []string
	for _, proj := range p.Projects {
		now := live[proj.ID]
		if diff.LiveDigest(now) == proj.LiveDigest {
			continue
		}
		reasons = append(reasons, explainProject(p, proj, st, now)...)
	}
	return reasons
}

// explainProject says what changed in one project since the plan. The plan
// keeps only a digest of the live endpoints, so what they were is rebuilt
// from what the plan and the (unchanged) state know: every endpoint the plan
// saw (its changes, drift, unmanaged endpoints, and state), and the values
// of those the state manages. The rebuilt set is checked against the
// digest; only when it matches are attribute-level reasons given, so a
// reason never claims more than is known.
func explainProject(p *diff.Plan, proj diff.Project, st *state.State, now []api.Endpoint) []string {
	then := endpointsAtPlan(p, proj.ID, st)
	nowByID := make(map[string]*api.Endpoint, len(now))
	for i := range now {
		nowByID[now[i].ID] = &now[i]
	}
	names := addressesOf(p, st)
	label := func(id string) string {
		if a := names[id]; a != "" {
			return fmt.Sprintf("%s (%s)", id, a)
		}
		return id
	}

	var reasons []string
	for _, id := range slices.Sorted(maps.Keys(nowByID)) {
		if _, known := then[id]; !known {
			ep := nowByID[id]
			reasons = append(reasons, fmt.Sprintf("%s: %s was created on branch %s since the plan", projectName(proj), describeEndpoint(ep), ep.BranchID))
		}
	}
	var changed, changedIDs, unsure []string
	rebuilt := make([]api.Endpoint, 0, len(then))
	exact := true
	for _, id := range slices.Sorted(maps.Keys(then)) {
		base, ep := then[id], nowByID[id]
		switch {
		case ep == nil:
			reasons = append(reasons, fmt.Sprintf("%s: %s was deleted since the plan", projectName(proj), label(id)))
			if base == nil {
				exact = false
			} else {
				rebuilt = append(rebuilt, *base)
			}
		case base == nil:
			unsure = append(unsure, id)
			rebuilt = append(rebuilt, *ep)
		default:
			if d := attributeChanges(base, ep); len(d) > 0 {
				changed = append(changed, fmt.Sprintf("%s: %s", label(id), strings.Join(d, ", ")))
				changedIDs = append(changedIDs, id)
			}
			rebuilt = append(rebuilt, *base)
		}
	}
	if exact && diff.LiveDigest(rebuilt) == proj.LiveDigest {
		return append(reasons, changed...)
	}
	// What the plan knows does not add up to the digest: say which endpoints
	// may have changed, without guessing how.
	maybe := slices.Sorted(slices.Values(append(changedIDs, unsure...)))
	switch {
	case len(maybe) > 0:
		reasons = append(reasons, fmt.Sprintf("%s (id %s): the live endpoints differ from the plan; what changed is among %s "+
			"(the plan keeps only a digest of the endpoints neonform does not manage)", projectName(proj), proj.ID, strings.Join(maybe, ", ")))
	case len(reasons) == 0:
		reasons = append(reasons, fmt.Sprintf("%s (id %s): the live endpoints differ from the plan", projectName(proj), proj.ID))
	}
	return reasons
}

// endpointsAtPlan returns every endpoint of the project that was live at
// plan time, with its values where the state knows them (nil where only
// its id is known).
func endpointsAtPlan(p *diff.Plan, projectID string, st *state.State) map[string]*api.Endpoint {
	gone, drifted := map[string]bool{}, map[string]bool{}
	for _, d := range p.Drift {
		if d.ProjectID != projectID {
			continue
		}
		if d.Gone {
			gone[d.EndpointID] = true
		} else {
			drifted[d.EndpointID] = true
		}
	}
	out := map[string]*api.Endpoint{}
	for _, c := range st.Computes {
		if c == nil || c.ProjectID != projectID || gone[c.EndpointID] {
			continue
		}
		if drifted[c.EndpointID] {
			out[c.EndpointID] = nil // it differed from what state says; its values then are not kept
			continue
		}
		out[c.EndpointID] = &api.Endpoint{
			ID: c.EndpointID, ProjectID: c.ProjectID, BranchID: c.BranchID, Type: c.Type, Name: c.Applied.Name,
			AutoscalingLimitMinCU: c.Applied.MinCU, AutoscalingLimitMaxCU: c.Applied.MaxCU,
			SuspendTimeoutSeconds: c.Applied.SuspendTimeoutSeconds, Disabled: c.Applied.Disabled,
			Settings: api.EndpointSettings{PgSettings: maps.Clone(c.Applied.PgSettings)},
		}
	}
	seen := func(id string) {
		if _, ok := out[id]; !ok && id != "" && !gone[id] {
			out[id] = nil
		}
	}
	for _, ch := range p.Changes {
		if ch.ProjectID == projectID {
			seen(ch.EndpointID)
		}
	}
	for _, u := range p.Unmanaged {
		if u.ProjectID == projectID {
			seen(u.EndpointID)
		}
	}
	for id := range drifted {
		seen(id)
	}
	return out
}

// addressesOf maps endpoint ids to the addresses the plan or state gives them.
func addressesOf(p *diff.Plan, st *state.State) map[string]string {
	out := map[string]string{}
	for addr, c := range st.Computes {
		if c != nil {
			out[c.EndpointID] = addr
		}
	}
	for _, ch := range p.Changes {
		if ch.EndpointID != "" && out[ch.EndpointID] == "" {
			out[ch.EndpointID] = ch.Address
		}
	}
	return out
}

// attributeChanges lists, in words, what differs between an endpoint then and now.
func attributeChanges(then, now *api.Endpoint) []string {
	var out []string
	add := func(name string, before, after any) {
		out = append(out, fmt.Sprintf("%s is %v now, was %v when planned", name, after, before))
	}
	if then.BranchID != now.BranchID {
		add("branch_id", then.BranchID, now.BranchID)
	}
	if then.Type != now.Type {
		add("type", then.Type, now.Type)
	}
	if then.Name != now.Name {
		add("name", fmt.Sprintf("%q", then.Name), fmt.Sprintf("%q", now.Name))
	}
	if then.AutoscalingLimitMinCU != now.AutoscalingLimitMinCU {
		add("min_cu", then.AutoscalingLimitMinCU, now.AutoscalingLimitMinCU)
	}
	if then.AutoscalingLimitMaxCU != now.AutoscalingLimitMaxCU {
		add("max_cu", then.AutoscalingLimitMaxCU, now.AutoscalingLimitMaxCU)
	}
	if then.SuspendTimeoutSeconds != now.SuspendTimeoutSeconds {
		add("suspend_timeout_seconds", then.SuspendTimeoutSeconds, now.SuspendTimeoutSeconds)
	}
	if then.Disabled != now.Disabled {
		add("disabled", then.Disabled, now.Disabled)
	}
	if !maps.Equal(then.Settings.PgSettings, now.Settings.PgSettings) { // nil and empty alike
		add("pg_settings", diff.FormatSettings(then.Settings.PgSettings), diff.FormatSettings(now.Settings.PgSettings))
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
