package apply

import (
	"fmt"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// hasFact reports whether e has a fact with every field want sets.
func hasFact(e *StaleError, want StaleFact) bool {
	for _, f := range e.Facts {
		if (want.Kind == "" || f.Kind == want.Kind) && (want.Address == "" || f.Address == want.Address) &&
			(want.Attribute == "" || f.Attribute == want.Attribute) && (want.Was == "" || f.Was == want.Was) &&
			(want.Now == "" || f.Now == want.Now) && (want.Type == "" || f.Type == want.Type) &&
			(want.Name == "" || f.Name == want.Name) && (want.Project == "" || f.Project == want.Project) {
			return true
		}
	}
	return false
}

// entry is a state entry in project.
func entry(project, endpoint string) *state.Compute {
	return &state.Compute{EndpointID: endpoint, ProjectID: project, Type: "read_write", Applied: state.Attributes{MinCU: 1, MaxCU: 1}}
}

// madeAgainst is a plan of projects "p-a" (which it changes) and "p-b"
// (which it leaves alone), made against st.
func madeAgainst(st *state.State) *diff.Plan {
	ids := map[string]bool{"p-a": true, "p-b": true}
	entries := st.EntryDigests(ids)
	p := &diff.Plan{State: diff.StateRef{Lineage: st.Lineage, Serial: st.Serial},
		Projects: []diff.Project{{ID: "p-a", Label: "a", StateEntries: entries["p-a"]}, {ID: "p-b", Label: "b", StateEntries: entries["p-b"]}},
		Steps:    []diff.Step{{ID: 1, ProjectID: "p-a", Address: "a.main.x"}}}
	if st.Serial == 0 {
		p.State = diff.StateRef{}
	}
	return p
}

// A plan is held to the state of the projects it changes: a write in
// another project leaves it current; one in its own names the address.
func TestStateCheckedByProject(t *testing.T) {
	st := state.New()
	st.Serial = 3
	st.Computes["a.main.x"] = entry("p-a", "ep-1")
	st.Computes["b.main.y"] = entry("p-b", "ep-2")
	p := madeAgainst(st)
	for _, c := range []struct {
		name string
		edit func(*state.State)
		want []StaleFact
	}{
		{"nothing", func(*state.State) {}, nil},
		{"a write that changed nothing", func(s *state.State) { s.Serial++ }, nil},
		{"an entry added elsewhere", func(s *state.State) { s.Serial++; s.Computes["b.main.z"] = entry("p-b", "ep-3") }, nil},
		{"an entry removed elsewhere", func(s *state.State) { s.Serial++; delete(s.Computes, "b.main.y") }, nil},
		{"a project not in the plan", func(s *state.State) { s.Serial++; s.Computes["c.main.z"] = entry("p-c", "ep-3") }, nil},
		{"an entry added here", func(s *state.State) { s.Serial++; s.Computes["a.main.z"] = entry("p-a", "ep-3") },
			[]StaleFact{{Kind: StaleEntryAdded, Project: "a", ProjectID: "p-a", Address: "a.main.z"}}},
		{"an entry removed here", func(s *state.State) { s.Serial++; delete(s.Computes, "a.main.x") },
			[]StaleFact{{Kind: StaleEntryRemoved, Project: "a", ProjectID: "p-a", Address: "a.main.x"}}},
		{"an entry changed here", func(s *state.State) { s.Serial++; s.Computes["a.main.x"].Applied.MaxCU = 2 },
			[]StaleFact{{Kind: StaleEntryChanged, Project: "a", ProjectID: "p-a", Address: "a.main.x"}}},
		{"defaults applied here", func(s *state.State) {
			s.Serial++
			s.Defaults = map[string]*state.Defaults{"a.defaults": {ProjectID: "p-a"}}
		}, []StaleFact{{Kind: StaleEntryAdded, Project: "a", ProjectID: "p-a", Address: "a.defaults"}}},
		{"an older state", func(s *state.State) { s.Serial-- }, []StaleFact{{Kind: StaleOlder, Was: "3", Now: "2"}}},
		{"another state", func(s *state.State) { s.Lineage = "other" }, []StaleFact{{Kind: StaleLineage, Was: st.Lineage, Now: "other"}}},
	} {
		now := st.Clone()
		c.edit(now)
		_, got := checkState(p, now)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// A plan made when there was no state: one written since in other projects
// leaves it current, whatever its lineage; one with entries of its own
// projects makes it stale.
func TestStateWrittenSinceAPlanMadeWithoutOne(t *testing.T) {
	p := madeAgainst(state.New())
	other := state.New()
	other.Serial = 2
	other.Computes["c.main.z"] = entry("p-c", "ep-3")
	if _, got := checkState(p, other); got != nil {
		t.Errorf("a state written in another project: got %+v", got)
	}
	other.Computes["a.main.x"] = entry("p-a", "ep-1")
	if _, got := checkState(p, other); len(got) != 1 || got[0].Kind != StaleEntryAdded || got[0].Address != "a.main.x" {
		t.Errorf("an entry in the plan's project: got %+v", got)
	}
}

// The entries of a project the plan leaves alone changed: it is taken out of
// the plan that Verify checks, whose summary no longer counts its no-ops.
func TestAQuietProjectThatMovedOnIsLeftOut(t *testing.T) {
	st := state.New()
	st.Serial = 1
	st.Computes["b.main.y"] = entry("p-b", "ep-2")
	p := madeAgainst(st)
	p.Changes = []diff.Change{{Address: "a.main.x", ProjectID: "p-a", Action: diff.Create}, {Address: "b.main.y", ProjectID: "p-b", Action: diff.NoOp}}
	p.Summary = diff.Summary{Create: 1, NoOp: 1}
	p.Drift = []diff.Drift{{Address: "b.main.y", ProjectID: "p-b"}}
	if got, _ := checkState(p, st); got != p {
		t.Errorf("nothing moved on: want the plan itself")
	}
	now := st.Clone()
	now.Serial++
	now.Computes["b.main.z"] = entry("p-b", "ep-3")
	got, facts := checkState(p, now)
	if facts != nil || got == nil {
		t.Fatalf("got %+v", facts)
	}
	if len(got.Projects) != 1 || got.Projects[0].ID != "p-a" || len(got.Changes) != 1 || got.Summary.NoOp != 0 || len(got.Drift) != 0 {
		t.Errorf("want project p-a alone, got %+v", got)
	}
	if len(p.Projects) != 2 || len(p.Changes) != 2 || p.Summary.NoOp != 1 || len(p.Drift) != 1 {
		t.Errorf("the plan itself changed: %+v", p)
	}
}

// A destroy plan deletes every compute the state manages, so any write
// since it was made, in any project, makes it stale (an entry written in
// a project it did not read would be left behind); but not a state that
// was empty when it was planned and is empty still, nor one whose own
// projects' entries already say what changed.
func TestADestroyPlanIsHeldToEveryWrite(t *testing.T) {
	written := func(was, now int64) StaleFact {
		return StaleFact{Kind: StaleWritten, Was: fmt.Sprint(was), Now: fmt.Sprint(now)}
	}
	st := state.New()
	st.Serial = 3
	st.Computes["a.main.x"] = entry("p-a", "ep-1")
	empty := state.New()
	for _, c := range []struct {
		name string
		made *state.State
		edit func(*state.State)
		want []StaleFact
	}{
		{"nothing written", st, func(*state.State) {}, nil},
		{"an entry written in a project it did not read", st, func(s *state.State) { s.Serial++; s.Computes["c.main.z"] = entry("p-c", "ep-3") },
			[]StaleFact{written(3, 4)}},
		{"an entry added in its own project", st, func(s *state.State) { s.Serial++; s.Computes["a.main.z"] = entry("p-a", "ep-3") },
			[]StaleFact{{Kind: StaleEntryAdded, Project: "a", ProjectID: "p-a", Address: "a.main.z"}}},
		{"planned without a state, still empty", empty, func(s *state.State) { s.Serial = 2 }, nil},
		{"planned without a state, an entry written elsewhere", empty, func(s *state.State) { s.Serial = 2; s.Computes["c.main.z"] = entry("p-c", "ep-3") },
			[]StaleFact{written(0, 2)}},
	} {
		p := madeAgainst(c.made)
		p.Destroy = true
		now := c.made.Clone()
		c.edit(now)
		_, got := checkState(p, now)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
