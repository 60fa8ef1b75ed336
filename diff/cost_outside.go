package diff

import (
	"maps"
	"slices"

	"github.com/neonform/neonform/sizing"
)

// A budget is the account's (or a project's), whatever a plan targets: a
// partial plan (-target) changes only its targets, but the month's bill is
// every compute's. So its budgets count, besides the targeted computes as
// the plan leaves them, every other compute the state manages as it is now
// (docs/cost.md, "A budget"): the ceiling of the account once the plan is
// applied. "As it is now" is the live endpoint where the plan read its
// project (a target is in it), and the values the state last applied
// where it did not: a plan reads no project it does not target. A compute
// the configuration declares but that was never applied costs nothing: it
// does not exist, and this plan does not make it.

// outside is the ceiling of the computes a partial plan leaves alone, by
// project id, and how many there are; nil for a whole plan, which covers
// every compute.
type outside struct {
	byProject map[string]*spend
	computes  map[string]int
}

// outsideCost is what the computes outside a partial plan's targets cost a
// month at their ceiling, as they are now. entries are the state entries
// once the moved blocks are followed.
func (pl *planner) outsideCost(plan *Plan, entries map[string]*stateEntry, price sizing.Price) *outside {
	if !pl.scope.partial() {
		return nil
	}
	read := map[string]map[string]*LiveEndpoint{}
	for i := range plan.Projects {
		p := &plan.Projects[i]
		read[p.ID] = make(map[string]*LiveEndpoint, len(p.Endpoints))
		for j := range p.Endpoints {
			read[p.ID][p.Endpoints[j].ID] = &p.Endpoints[j]
		}
	}
	changed := make(map[string]bool, len(plan.Changes))
	for _, c := range plan.Changes {
		changed[c.EndpointID] = true
	}
	out := &outside{byProject: map[string]*spend{}, computes: map[string]int{}}
	for _, e := range entries {
		if pl.scope.covers(e.addr) || changed[e.c.EndpointID] {
			continue // the plan's own change says what it costs
		}
		v := AppliedValues(e.c)
		if live, wasRead := read[e.c.ProjectID]; wasRead {
			ep := live[e.c.EndpointID]
			if ep == nil {
				continue // gone: it costs nothing
			}
			v = ep.Values
		}
		var hours *float64
		cp := pl.inConfig[e.addr]
		if cp != nil && !e.deposed {
			hours = cp.ActiveHours
		}
		sp := out.byProject[e.c.ProjectID]
		if sp == nil {
			sp = &spend{}
			out.byProject[e.c.ProjectID] = sp
		}
		sp.usd += costOf(v, hours, price).USDMax
		if (cp != nil && !e.deposed && costSensitive(cp)) || stateCostSensitive(e.c.Sensitive) {
			sp.secret = append(sp.secret, e.addr)
		}
		out.computes[e.c.ProjectID]++
	}
	for _, sp := range out.byProject {
		slices.Sort(sp.secret)
	}
	return out
}

// stateCostSensitive reports whether a state entry records a value its cost
// follows from as coming from a sensitive variable.
func stateCostSensitive(sensitive []string) bool {
	return changeSensitive(&Change{Sensitive: sensitive})
}

// of is the ceiling outside the targets of one project ("": every
// project), and how many computes it counts.
func (o *outside) of(projectID string) (s spend, n int) {
	if o == nil {
		return s, 0
	}
	for _, id := range slices.Sorted(maps.Keys(o.byProject)) { // one order: one sum
		if sp := o.byProject[id]; projectID == "" || id == projectID {
			s.usd += sp.usd
			s.secret = append(s.secret, sp.secret...)
			n += o.computes[id]
		}
	}
	slices.Sort(s.secret)
	return s, n
}
