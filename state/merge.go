package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A run that holds the locks of some projects (Postgres.LockProjects)
// writes only those projects' entries: other runs change the other
// projects' entries meanwhile, under their own locks, and the serial moves
// with every write of any of them. So its write is a merge, in the write's
// transaction: the stored state, the held projects' entries replaced by the
// run's, the rest kept as stored, the serial the stored one's next. It is
// refused when a held project's stored entries are not those the run last
// read or wrote (someone changed them without the lock: -lock=false, or
// after a force-unlock), as a whole-state write is refused when the serial
// moved.

// heldEntry is one entry of a project in the state, encoded: a compute by
// its address, or a project's defaults.
type heldEntry struct {
	project string
	data    []byte
}

// heldEntries are the entries of s that belong to projects (sorted ids),
// keyed by "computes/ADDR" and "defaults/ADDR". They are compared encoded,
// so that an empty map and a missing one, alike once stored, are alike.
func heldEntries(s *State, projects []string) (map[string]heldEntry, error) {
	out := map[string]heldEntry{}
	add := func(kind, addr, project string, v any) error {
		if _, ok := slices.BinarySearch(projects, project); !ok {
			return nil
		}
		data, err := json.Marshal(v)
		out[kind+"/"+addr] = heldEntry{project, data}
		return err
	}
	for addr, c := range s.Computes {
		if c != nil {
			if err := add("computes", addr, c.ProjectID, c); err != nil {
				return nil, err
			}
		}
	}
	for addr, d := range s.Defaults {
		if d != nil {
			if err := add("defaults", addr, d.ProjectID, d); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// changedProjects are the projects whose entries differ between then and
// now, sorted.
func changedProjects(then, now map[string]heldEntry) []string {
	changed := map[string]bool{}
	for k, e := range now {
		if t, ok := then[k]; !ok || !bytes.Equal(t.data, e.data) {
			changed[e.project] = true
		}
	}
	for k, e := range then {
		if _, ok := now[k]; !ok {
			changed[e.project] = true
		}
	}
	return slices.Sorted(maps.Keys(changed))
}

// mergeHeld is what a run holding the locks of projects (sorted ids), which
// read or last wrote their entries as base, stores when it writes s over
// stored (exists false: nothing is stored).
func mergeHeld(backend string, stored *State, exists bool, projects []string, base map[string]heldEntry, s *State) (*State, error) {
	// A state read when there was none has a lineage of its own; another
	// run may have stored the first state since: this one joins it.
	readEmpty := s.Serial == 0 && len(base) == 0
	lineage := stored.Lineage
	if !exists || readEmpty {
		lineage = s.Lineage
	}
	if c := conflict(backend, exists, lineage, s.Serial, s); c != nil {
		return nil, c
	}
	now, err := heldEntries(stored, projects)
	if err != nil {
		return nil, err
	}
	if changed := changedProjects(base, now); len(changed) > 0 {
		return nil, &ConflictError{Backend: backend, StoredLineage: stored.Lineage, StoredSerial: stored.Serial,
			Reason: fmt.Sprintf("the entries of project %s changed since this run read them, though it holds their lock (a run with -lock=false, or one whose lock was force-unlocked, wrote them)",
				strings.Join(changed, ", "))}
	}
	next := &State{FormatVersion: FormatVersion, Lineage: s.Lineage, Serial: 1, Computes: map[string]*Compute{}}
	if exists {
		next.Lineage = stored.Lineage
		if next.Serial, err = stored.nextSerial(); err != nil {
			return nil, err
		}
	}
	held := func(project string) bool {
		_, ok := slices.BinarySearch(projects, project)
		return ok
	}
	for addr, c := range stored.Computes {
		if c == nil || !held(c.ProjectID) {
			next.Computes[addr] = c
		}
	}
	for addr, d := range stored.Defaults {
		if d == nil || !held(d.ProjectID) {
			setDefaults(next, addr, d)
		}
	}
	taken := func(addr, project string) error {
		return &ConflictError{Backend: backend, StoredLineage: stored.Lineage, StoredSerial: stored.Serial,
			Reason: fmt.Sprintf("%s is stored as an entry of another project than %s, which this run holds", addr, project)}
	}
	for addr, c := range s.Computes {
		if c != nil && held(c.ProjectID) {
			if _, dup := next.Computes[addr]; dup {
				return nil, taken(addr, c.ProjectID)
			}
			next.Computes[addr] = c
		}
	}
	for addr, d := range s.Defaults {
		if d != nil && held(d.ProjectID) {
			if _, dup := next.Defaults[addr]; dup {
				return nil, taken(addr, d.ProjectID)
			}
			setDefaults(next, addr, d)
		}
	}
	if err := next.Validate(); err != nil {
		return nil, fmt.Errorf("refusing to write %s: merged with the entries other runs stored: %w", backend, err)
	}
	return next, nil
}

func setDefaults(s *State, addr string, d *Defaults) {
	if s.Defaults == nil {
		s.Defaults = map[string]*Defaults{}
	}
	s.Defaults[addr] = d
}
