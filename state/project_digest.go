package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
)

// A saved plan depends on the state of the projects it changes, not on the
// whole state: a preview applied in another project, an import or a state
// command elsewhere must not make it stale. So a plan records, for each
// project it reads, a digest of each of that project's state entries, and
// apply compares them with the stored state's.
//
// Digests rather than per-project serials: they need nothing from the
// backends (a per-project serial would be a new field in both, written by
// every writer, old ones too), they tell a change from a write that changed
// nothing (a state push of the same entries), and, one per entry, they name
// the address that was added, removed or changed since the plan.

// EntryDigests is, for each project id in projects, the digest of each of
// its entries by address: its computes (by their ProjectID) and its
// compute defaults. A project without entries has an empty map.
func (s *State) EntryDigests(projects map[string]bool) map[string]map[string]string {
	// Each project's map sized at once: grown by doubling, the map of a
	// project of 250,000 computes was rehashed some fifteen times.
	sizes := make(map[string]int, len(projects))
	for _, c := range s.Computes {
		if c != nil && projects[c.ProjectID] {
			sizes[c.ProjectID]++
		}
	}
	out := make(map[string]map[string]string, len(projects))
	for id := range projects {
		out[id] = make(map[string]string, sizes[id])
	}
	d := newDigester()
	for addr, c := range s.Computes {
		if c != nil && projects[c.ProjectID] {
			out[c.ProjectID][addr] = d.digest(c)
		}
	}
	for addr, def := range s.Defaults {
		if def != nil && projects[def.ProjectID] {
			out[def.ProjectID][addr] = d.digest(def)
		}
	}
	return out
}

// digester makes the digest of entries, "sha256:<hex>" of an entry's JSON as
// the state file holds it: encoding/json writes a struct's fields in order
// and a map's keys sorted, so equal entries have equal digests. One hash
// and one encoder serve every entry: a state of 100,000 computes is
// digested at every plan.
type digester struct {
	h   hash.Hash
	enc *json.Encoder
	sum [sha256.Size]byte
	hex [len("sha256:") + 2*sha256.Size]byte
}

func newDigester() *digester {
	d := &digester{h: sha256.New()}
	d.enc = json.NewEncoder(d.h)
	copy(d.hex[:], "sha256:")
	return d
}

func (d *digester) digest(entry any) string {
	d.h.Reset()
	_ = d.enc.Encode(entry) // strings, numbers and maps of strings: cannot fail
	hex.Encode(d.hex[len("sha256:"):], d.h.Sum(d.sum[:0]))
	return string(d.hex[:])
}
