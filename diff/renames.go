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
// A delete a removed block asks for is no rename. With several of a type
// on the branch (a branch block regrouped under another label or a rule,
// its read replicas with it), a create and a delete are paired only by the
// compute's own label, when every one pairs so.
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
	for c, old := range pairsPerPlace(created, deleted, func(ch *Change) string { return computeLabel(ch.Address) }) {
		c.Reasons = append(c.Reasons, Reason{Kind: ReasonMayBeRenamed, From: old.Address, EndpointID: old.EndpointID})
	}
}

// pairsPerPlace yields, for each place, a compute created and one deleted
// there that may be the same: the two when there is one of each; with more,
// each create and the delete of the same label (label), when the labels
// pair every create with exactly one delete. Otherwise which is which is a
// guess, and nothing is said.
func pairsPerPlace[K comparable, T any](created, deleted map[K][]T, label func(T) string) iter.Seq2[T, T] {
	return func(yield func(T, T) bool) {
		for at, creates := range created {
			for i, d := range pairsAt(creates, deleted[at], label) {
				if !yield(creates[i], d) {
					return
				}
			}
		}
	}
}

// pairsAt pairs creates with deletes as pairsPerPlace says, or not at all.
func pairsAt[T any](creates, deletes []T, label func(T) string) map[int]T {
	switch {
	case len(creates) != len(deletes) || len(creates) == 0:
		return nil
	case len(creates) == 1:
		return map[int]T{0: deletes[0]}
	}
	byLabel := make(map[string]T, len(deletes))
	for _, d := range deletes {
		l := label(d)
		if _, twice := byLabel[l]; twice || l == "" {
			return nil
		}
		byLabel[l] = d
	}
	out := make(map[int]T, len(creates))
	for i, c := range creates {
		d, ok := byLabel[label(c)]
		if !ok {
			return nil
		}
		out[i] = d
	}
	return out
}

// computeLabel is the label of the compute block at addr ("reports" of
// shop.main.reports), "" when addr does not parse.
func computeLabel(addr string) string {
	_, _, compute, err := config.ParseAddress(addr)
	if err != nil {
		return ""
	}
	return compute
}

func isDeposed(addr string) bool {
	_, _, deposed := state.Deposed(addr)
	return deposed
}
