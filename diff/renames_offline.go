package diff

import (
	"sort"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

// Rename is a compute the state holds at From that a block may now declare
// at To: the moved block plan suggests (config.MovedBlock(From, To)).
type Rename struct{ From, To string }

// OfflineRenames are the renames plan would name (nameRenames's rule: a
// compute created and one deleted at a place, one of each or paired by label), found from the configuration
// and the state alone, for an editor that calls no service: a compute
// block whose address the state does not hold, and a state entry that no
// block declares and no removed block names, of the same type under the
// same project and branch labels. A moved block's from and to are
// renames written already. Plan's places are the service's branches,
// which need the service; a branch block is one here. Sorted by To.
func OfflineRenames(cfg *config.Config, st *state.State) []Rename {
	type place struct{ project, branch, typ string }
	created, deleted := map[place][]string{}, map[place][]string{}
	declared := cfg.ComputesByAddress()
	moved := func(addr string, end func(*config.Move) string) bool {
		for _, m := range cfg.Moves {
			if Covers(end(m), addr) {
				return true
			}
		}
		return false
	}
	for _, c := range cfg.Computes() {
		if st.Computes[c.Address] == nil && !moved(c.Address, func(m *config.Move) string { return m.To }) {
			at := place{c.ProjectLabel, c.BranchLabel, string(apiType(c.Type))}
			created[at] = append(created[at], c.Address)
		}
	}
	removed := map[string]bool{}
	for _, r := range cfg.Removals {
		removed[r.From] = true
	}
	for addr, sc := range st.Computes {
		project, branch, _, err := config.ParseAddress(addr)
		if err != nil || declared[addr] != nil || removed[addr] || isDeposed(addr) ||
			moved(addr, func(m *config.Move) string { return m.From }) {
			continue
		}
		at := place{project, branch, string(sc.Type)}
		deleted[at] = append(deleted[at], addr)
	}
	var out []Rename
	for to, from := range pairsPerPlace(created, deleted, computeLabel) {
		out = append(out, Rename{From: from, To: to})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].To < out[j].To })
	return out
}
