package apply

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// StaleError refuses a plan that no longer matches what it was made from:
// the state of a project it changes moved on, or that project's live
// endpoints or compute defaults changed. Nothing was changed.
//
// It holds the facts, one each thing that changed; the views word them
// for people and as diagnostics for apply -json
// (internal/command/views/stale.go).
type StaleError struct {
	// State is where the state is (state.Backend.Describe).
	State string
	// Facts say what changed, in the order people read them.
	Facts []StaleFact
}

// StaleKind is what changed since a plan was made.
type StaleKind string

// The kinds of StaleFact, and the fields each one sets.
const (
	// StaleLineage: the state is another one than the plan's (Was, Now:
	// the lineages; Was "" when the plan recorded none).
	StaleLineage StaleKind = "state_lineage"
	// StaleOlder: the state's serial is below the plan's (Was, Now): it
	// was restored from a backup.
	StaleOlder StaleKind = "state_older"
	// StaleWritten: a destroy plan, which covers the whole state, and the
	// state was written since (Was, Now: the serials).
	StaleWritten StaleKind = "state_written"
	// StaleEntryAdded, StaleEntryRemoved, StaleEntryChanged: the state's
	// entry at Address, in a project the plan changes (Project, ProjectID),
	// was added, removed or changed since the plan.
	StaleEntryAdded   StaleKind = "state_entry_added"
	StaleEntryRemoved StaleKind = "state_entry_removed"
	StaleEntryChanged StaleKind = "state_entry_changed"
	// StaleEndpointCreated: endpoint EndpointID (Type, Name, on BranchID)
	// was created in Project since the plan.
	StaleEndpointCreated StaleKind = "endpoint_created"
	// StaleEndpointDeleted: endpoint EndpointID (of Address, when the plan
	// names one) was deleted since the plan.
	StaleEndpointDeleted StaleKind = "endpoint_deleted"
	// StaleAttribute: Attribute of endpoint EndpointID (Address) is Now,
	// was Was when planned; values from sensitive variables hidden.
	StaleAttribute StaleKind = "endpoint_attribute"
	// StaleLive: Project's live endpoints differ from the plan's record,
	// in nothing the facts above name.
	StaleLive StaleKind = "live_endpoints"
	// StaleDefaults: Attribute of the compute defaults at Address was Was
	// when planned and is Now.
	StaleDefaults StaleKind = "project_defaults"
)

// StaleFact is one thing that changed since the plan was made. Fields that
// do not concern its Kind are empty.
type StaleFact struct {
	Kind StaleKind
	// Project is the project's label (its id when it has none), ProjectID
	// its id.
	Project, ProjectID string
	Address            string
	EndpointID         string
	Attribute          string
	Was, Now           string
	// Type, Name, BranchID: an endpoint created since.
	Type, Name, BranchID string
}

// Replan is the command a stale plan's refusal suggests.
var Replan = suggest.Run("plan")

// Suggestions is the plan the refusal suggests.
func (e *StaleError) Suggestions() []suggest.Command { return []suggest.Command{Replan} }

func (e *StaleError) Error() string {
	return fmt.Sprintf("the plan is stale (%d changes since it was made), so nothing was changed", len(e.Facts))
}

// checkState holds p to the stored state st. A plan that saw a state needs
// the same one (its lineage), and not an older one (its serial); beyond
// that, only the projects the plan acts on matter (actedOn): their entries
// must be those the plan recorded. A write anywhere else (a preview applied
// in another project, an import, a state command) leaves the plan current.
//
// It returns the plan to verify: p without the projects it leaves alone
// whose entries changed since (diff.Verify derives a project's drift and
// no-ops from the state, which moved on there), or p itself.
func checkState(p *diff.Plan, st *state.State) (*diff.Plan, []StaleFact) {
	planned := p.State
	if planned.Serial > 0 {
		if planned.Lineage != st.Lineage {
			return nil, []StaleFact{{Kind: StaleLineage, Was: planned.Lineage, Now: st.Lineage}}
		}
		if st.Serial < planned.Serial {
			return nil, []StaleFact{{Kind: StaleOlder, Was: strconv.FormatInt(planned.Serial, 10), Now: strconv.FormatInt(st.Serial, 10)}}
		}
	}
	acted := actedOn(p)
	ids := make(map[string]bool, len(p.Projects))
	for _, proj := range p.Projects {
		ids[proj.ID] = true
	}
	now := st.EntryDigests(ids)
	var facts []StaleFact
	quietMoved := map[string]bool{}
	for _, proj := range p.Projects {
		changed := entriesChanged(proj, now[proj.ID])
		switch {
		case acted[proj.ID]:
			facts = append(facts, changed...)
		case len(changed) > 0:
			quietMoved[proj.ID] = true
		}
	}
	if p.Destroy && len(facts) == 0 && st.Serial != planned.Serial && !(planned.Serial == 0 && len(st.Computes) == 0) {
		// A destroy plan deletes every managed compute: an entry written
		// since in a project it did not read would be left behind.
		facts = append(facts, StaleFact{Kind: StaleWritten, Was: strconv.FormatInt(planned.Serial, 10), Now: strconv.FormatInt(st.Serial, 10)})
	}
	if len(facts) > 0 {
		return nil, facts
	}
	if len(quietMoved) == 0 {
		return p, nil
	}
	return withoutProjects(p, quietMoved), nil
}

// actedOn is the set of the plan's projects that it acts on, as the file
// says (Verify then holds the file to what its changes derive): a step, a
// change other than a no-op, or a change of its defaults. A destroy plan
// acts on every project it read.
func actedOn(p *diff.Plan) map[string]bool {
	out := map[string]bool{}
	if p.Destroy {
		for _, proj := range p.Projects {
			out[proj.ID] = true
		}
		return out
	}
	for _, s := range p.Steps {
		out[s.ProjectID] = true
	}
	for i := range p.Changes {
		if p.Changes[i].Action != diff.NoOp {
			out[p.Changes[i].ProjectID] = true
		}
	}
	for _, d := range p.Defaults {
		out[d.ProjectID] = true
	}
	return out
}

// entriesChanged are the facts of what differs between the entries proj
// recorded and now, by address.
func entriesChanged(proj diff.Project, now map[string]string) []StaleFact {
	var out []StaleFact
	fact := func(kind StaleKind, addr string) {
		out = append(out, StaleFact{Kind: kind, Project: projectName(proj), ProjectID: proj.ID, Address: addr})
	}
	for _, addr := range slices.Sorted(maps.Keys(proj.StateEntries)) {
		switch d, ok := now[addr]; {
		case !ok:
			fact(StaleEntryRemoved, addr)
		case d != proj.StateEntries[addr]:
			fact(StaleEntryChanged, addr)
		}
	}
	for _, addr := range slices.Sorted(maps.Keys(now)) {
		if _, ok := proj.StateEntries[addr]; !ok {
			fact(StaleEntryAdded, addr)
		}
	}
	return out
}

// withoutProjects is a copy of p without the projects in gone, which it
// leaves alone: their records, their changes (no-ops, taken out of the
// summary's count) and their drift.
func withoutProjects(p *diff.Plan, gone map[string]bool) *diff.Plan {
	n := *p
	n.Projects = slices.DeleteFunc(slices.Clone(p.Projects), func(proj diff.Project) bool { return gone[proj.ID] })
	n.Changes = slices.DeleteFunc(slices.Clone(p.Changes), func(ch diff.Change) bool {
		if gone[ch.ProjectID] {
			n.Summary.NoOp--
			return true
		}
		return false
	})
	n.Drift = slices.DeleteFunc(slices.Clone(p.Drift), func(d diff.Drift) bool { return gone[d.ProjectID] })
	return &n
}

func projectName(proj diff.Project) string {
	if proj.Label != "" {
		return proj.Label
	}
	return proj.ID
}
