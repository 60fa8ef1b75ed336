package diff

import (
	"iter"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

// nameRenames says of a create that comes with the delete of a managed
// compute of its type on its branch (one of each there) that the two may be
// one compute whose block was renamed, and gives the moved block that keeps
// the endpoint: a label change the plan can see is named as one, since
// deleting and creating costs the endpoint's host, and a primary's downtime.
// A delete a removed block asks for is no rename.
func nameRenames(p *Plan, st *state.State, removals map[string]*config.Removal) {
	type place struct{ project, branch, typ string }
	created, deleted := map[place][]*Change{}, map[place][]*Change{}
	for i := range p.Changes {
		ch := &p.Changes[i]
		at := place{ch.ProjectID, ch.BranchID, string(ch.Type)}
		switch {
		case ch.Action == Create:
			created[at] = append(created[at], ch)
		case ch.Action == Delete && removals[ch.Address] == nil && !isDeposed(ch.Address) &&
			st.Computes[ch.Address] != nil && st.Computes[ch.Address].EndpointID == ch.EndpointID:
			deleted[at] = append(deleted[at], ch)
		}
	}
	for c, old := range onePerPlace(created, deleted) {
		c.Reasons = append(c.Reasons, Reason{Kind: ReasonMayBeRenamed, From: old.Address, EndpointID: old.EndpointID})
	}
}

// onePerPlace yields, for each place with one compute created and one
// deleted, the two: with more of either, which is which is a guess, and
// nothing is said.
func onePerPlace[K comparable, T any](created, deleted map[K][]T) iter.Seq2[T, T] {
	return func(yield func(T, T) bool) {
		for at, creates := range created {
			deletes := deleted[at]
			if len(creates) != 1 || len(deletes) != 1 {
				continue
			}
			if !yield(creates[0], deletes[0]) {
				return
			}
		}
	}
}

func isDeposed(addr string) bool {
	_, _, deposed := state.Deposed(addr)
	return deposed
}
