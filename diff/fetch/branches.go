package fetch

import (
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

// Which branch a branch block means, without listing the project's branches.
//
// The state records the branch of every compute neonform manages, by id, and
// the name its branch block found it by. A branch block found by name is
// taken to be the branch its computes are recorded on, as long as they were
// recorded under the name the block says now: so a plan in the steady state
// reads one list of endpoints a project and no list of branches, and a
// branch renamed outside neonform keeps its id, so its computes stay where
// they are. The branches are listed, and every block found by its name
// again, when a block cannot be known this way:
//
//   - a block none of whose computes is recorded yet (found for the first
//     time), or recorded under another name or by id (the block's name or
//     id changed; a state written before the name was recorded);
//   - recorded computes of one block on different branches, or of two blocks
//     on one branch (a `state mv` across branches);
//   - a recorded branch on which no endpoint is live any more: it may have been
//     deleted, and the block then means whatever branch has its name now;
//   - a project with a branch rule (branches block), whose instances are the
//     live branches it matches;
//   - -refresh-branches.

// branchKey is a branch block of a project: the project's id, and the
// project and branch labels.
type branchKey struct{ projectID, project, branch string }

// recordedBranch is the branch the computes of a block are recorded on, and
// the name the block found it by.
type recordedBranch struct{ id, name string }

// recordedBranches indexes the branches the state records by the labels of
// the addresses they are recorded at: the branch block each compute was
// planned in. Deposed entries are left out: an interrupted replacement's old
// endpoint may be on a branch its compute has left. An id of "" marks a block
// whose computes are recorded on more than one branch, or under more than one
// name.
func recordedBranches(st *state.State) map[branchKey]recordedBranch {
	out := map[branchKey]recordedBranch{}
	if st == nil {
		return out
	}
	for addr, c := range st.Computes {
		if c == nil || c.BranchID == "" {
			continue
		}
		if _, _, deposed := state.Deposed(addr); deposed {
			continue
		}
		project, branch, _, err := config.ParseAddress(addr)
		if err != nil {
			continue
		}
		k := branchKey{c.ProjectID, project, branch}
		r := recordedBranch{c.BranchID, c.BranchName}
		if prev, seen := out[k]; seen && prev != r {
			out[k] = recordedBranch{}
			continue
		}
		out[k] = r
	}
	return out
}

// knownBranches is the id of every branch block of p that finds its branch
// by name, as the state records it, or nil when some block's cannot be
// known that way (see above) and the branches must be listed.
func knownBranches(p *config.Project, recorded map[branchKey]recordedBranch) map[string]string {
	if len(p.Rules) > 0 {
		return nil // a rule matches the branches as they are now: they are listed
	}
	known := map[string]string{}
	owner := map[string]string{} // branch id -> the block label that means it
	for _, b := range p.Branches {
		if b.ID != "" {
			owner[b.ID] = b.Label
		}
	}
	for _, b := range p.Branches {
		if b.ID != "" {
			continue
		}
		r := recorded[branchKey{p.ID, p.Label, b.Label}]
		if r.id == "" || r.name != b.Name || owner[r.id] != "" {
			return nil
		}
		owner[r.id] = b.Label
		known[b.Label] = r.id
	}
	return known
}

// stillThere reports whether every branch in known has a live endpoint, the
// sign that it still exists (its computes go with a deleted branch).
func stillThere(known map[string]string, onBranch map[string]bool) bool {
	for _, id := range known {
		if !onBranch[id] {
			return false
		}
	}
	return true
}
