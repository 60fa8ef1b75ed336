package state

import (
	"crypto/rand"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/internal/suggest"
)

// FormatVersion is the version of the state format this neonform writes and
// the newest one it reads. Bump it when a change would make an older neonform
// misread the file; older readers then refuse instead of dropping data.
//
// 2: a compute records its branch_name and host. A version-1 state reads as
// is (both are optional) and is written back as version 2, which a neonform
// that reads version 1 only refuses as newer rather than as misshapen.
//
// 3: a compute records which of its values came from a variable declared
// sensitive (sensitive), so that state show hides them. A version-1 or -2
// state reads as is (no entry says so until the next plan records it) and
// is written back as version 3.
const FormatVersion = 3

// State maps each compute address (<project>.<branch>.<compute>) to the
// endpoint it manages and to what was last applied to it.
type State struct {
	FormatVersion int                 `json:"format_version"`
	Lineage       string              `json:"lineage"` // uuid v4 fixed at creation
	Serial        int64               `json:"serial"`
	Computes      map[string]*Compute `json:"computes"`
	// Defaults are the projects' compute defaults neonform applied (a
	// project's defaults block), by address ("shop.defaults"): what was
	// last applied, which a plan compares with the project's to show drift.
	Defaults map[string]*Defaults `json:"defaults,omitempty"`
}

// Defaults are a project's compute defaults as neonform last applied them:
// the attributes a defaults block sets, in Applied (the others are zero).
type Defaults struct {
	ProjectID string     `json:"project_id"`
	Applied   Attributes `json:"applied"`
}

// Compute is one managed endpoint.
type Compute struct {
	EndpointID     string           `json:"endpoint_id"`
	ProjectID      string           `json:"project_id"`
	BranchID       string           `json:"branch_id"`
	Type           api.EndpointType `json:"type"`
	PreventDestroy bool             `json:"prevent_destroy"`
	// BranchName is the name by which the compute's branch block found its
	// branch, when it found it by name rather than by id: a plan takes the
	// branch from BranchID without listing the project's branches only while
	// the block still says this name.
	BranchName string `json:"branch_name,omitempty"`
	// Host is the endpoint's host name as the service last reported it, for
	// people (state show): what clients connect to. It is never compared: a
	// plan reads the live endpoint. Empty in entries written before it was
	// recorded, until the next apply that touches the endpoint.
	Host    string     `json:"host,omitempty"`
	Applied Attributes `json:"applied"`
	// Sensitive names the attributes whose applied value came from a
	// variable declared sensitive ("pg_settings", "max_cu", ...; the plan's
	// attribute names): apply needs the values, people never see them
	// (docs/configuration.md, Variables). Absent in entries written before it was
	// recorded, until the next plan records it.
	Sensitive []string `json:"sensitive,omitempty"`
	// SensitiveFrom names, for each attribute of Sensitive, the sensitive
	// variables its value came from, which state show names in place of the
	// value; absent from a state written before it was kept.
	SensitiveFrom map[string][]string `json:"sensitive_from,omitempty"`
}

// Attributes are what neonform last applied, in the service's own terms (so
// drift can be seen by comparing with the live endpoint): the attribute
// table's managed.Applied, the entry's type and branch being its own.
type Attributes = managed.Applied

// New returns an empty state with a new lineage and serial 0.
func New() *State {
	return &State{
		FormatVersion: FormatVersion,
		Lineage:       newUUID(),
		Computes:      map[string]*Compute{},
	}
}

// Addresses returns the addresses in state, sorted.
func (s *State) Addresses() []string {
	return slices.Sorted(maps.Keys(s.Computes))
}

// ByEndpoint returns the address that manages endpointID, if any. An endpoint
// belongs to at most one address (Validate enforces it), so the answer is unique.
func (s *State) ByEndpoint(endpointID string) (addr string, ok bool) {
	for a, c := range s.Computes {
		if c != nil && c.EndpointID == endpointID {
			return a, true
		}
	}
	return "", false
}

// CloneSensitiveFrom is a deep copy of a SensitiveFrom map: nil when empty,
// as an entry without the field reads.
func CloneSensitiveFrom(from map[string][]string) map[string][]string {
	if len(from) == 0 {
		return nil
	}
	out := make(map[string][]string, len(from))
	for k, v := range from {
		out[k] = slices.Clone(v)
	}
	return out
}

// Clone returns a deep copy: changing the copy never changes s.
func (s *State) Clone() *State {
	c := *s
	c.Computes = make(map[string]*Compute, len(s.Computes))
	for addr, comp := range s.Computes {
		if comp == nil {
			c.Computes[addr] = nil
			continue
		}
		cc := *comp
		cc.Applied = comp.Applied.Clone()
		cc.Sensitive = slices.Clone(comp.Sensitive)
		cc.SensitiveFrom = CloneSensitiveFrom(comp.SensitiveFrom)
		c.Computes[addr] = &cc
	}
	if s.Defaults != nil {
		c.Defaults = make(map[string]*Defaults, len(s.Defaults))
		for addr, d := range s.Defaults {
			dd := *d
			dd.Applied = d.Applied.Clone()
			c.Defaults[addr] = &dd
		}
	}
	return &c
}

// Move renames the entry at from to to, keeping its endpoint: what
// `neonform state mv` and a `moved` block do.
func (s *State) Move(from, to string) error {
	c, ok := s.Computes[from]
	if !ok {
		list := suggest.Run("state", "list")
		return diag.ErrorAt(from, "No such compute in the state", fmt.Sprintf("no compute %q in state; %s shows the addresses there are", from, list.Quoted()), list)
	}
	if _, taken := s.Computes[to]; taken {
		rm := suggest.Run("state", "rm", to)
		return diag.ErrorAt(to, "Address already in the state",
			fmt.Sprintf("cannot move %q to %q: %q is already in state; remove it first with %s", from, to, to, rm.Quoted()), rm)
	}
	delete(s.Computes, from)
	s.Computes[to] = c
	return nil
}

// Validate checks what every reader of the state relies on: a lineage, and
// each address holding a known type and an endpoint no other address holds.
func (s *State) Validate() error {
	if s.Lineage == "" {
		return fmt.Errorf("state has no lineage; start from state.New() or a backend's Read")
	}
	// A sound state (nearly always) is checked in any order; only a faulty
	// one is checked again in order, so the problem it reports is the
	// first by address, as ever. Sorting 100,000 addresses costs more than
	// the checks.
	if validateIn(s, maps.Keys(s.Computes)) == nil {
		return nil
	}
	return validateIn(s, slices.Values(s.Addresses()))
}

// validateIn checks the entries at addrs, in that order.
func validateIn(s *State, addrs iter.Seq[string]) error {
	owner := make(map[string]string, len(s.Computes))
	for addr := range addrs {
		c := s.Computes[addr]
		switch {
		case addr == "":
			return fmt.Errorf("state has a compute with an empty address")
		}
		if err := checkAddress(addr); err != nil {
			return err
		}
		switch {
		case c == nil:
			rm := suggest.Run("state", "rm", addr)
			return diag.ErrorAt(addr, "Empty state entry", fmt.Sprintf("compute %q in state is null; remove it with %s", addr, rm.Quoted()), rm)
		case c.EndpointID == "":
			rm := suggest.Run("state", "rm", addr)
			return diag.ErrorAt(addr, "State entry without an endpoint",
				fmt.Sprintf("compute %q in state has no endpoint_id; remove it with %s and import it again", addr, rm.Quoted()), rm)
		case c.Type != api.EndpointTypeReadWrite && c.Type != api.EndpointTypeReadOnly:
			return diag.ErrorAt(addr, "Unknown compute type in the state",
				fmt.Sprintf("compute %q in state has type %q; it must be %q or %q", addr, c.Type, api.EndpointTypeReadWrite, api.EndpointTypeReadOnly))
		}
		if other, dup := owner[c.EndpointID]; dup {
			rmOther, rm := suggest.Run("state", "rm", other), suggest.Run("state", "rm", addr)
			return diag.ErrorAt(addr, "Endpoint in the state twice",
				fmt.Sprintf("endpoint %s is in state twice, as %q and %q; remove one with %s or %s", c.EndpointID, other, addr, rmOther.Quoted(), rm.Quoted()), rmOther, rm)
		}
		owner[c.EndpointID] = addr
	}
	return nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails: crypto/rand aborts the program rather than return short
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// DeposedAddress is where apply keeps a replacement's old endpoint between
// the create of its successor and its own delete: "<address>[deposed:<id>]".
// So the state names every endpoint an apply is responsible for, even when
// the apply stops halfway.
func DeposedAddress(addr, endpointID string) string {
	return addr + "[deposed:" + endpointID + "]"
}

// Deposed splits a deposed address into the compute's address and the old
// endpoint's id; ok is false for any other address.
func Deposed(addr string) (base, endpointID string, ok bool) {
	rest, found := strings.CutSuffix(addr, "]")
	if !found {
		return "", "", false
	}
	// The last marker, and an id of the service's alphabet: a for_each key
	// ends in "] too, and may hold anything.
	i := strings.LastIndex(rest, "[deposed:")
	if i <= 0 {
		return "", "", false
	}
	base, endpointID = rest[:i], rest[i+len("[deposed:"):]
	if endpointID == "" || strings.Trim(endpointID, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		return "", "", false
	}
	return base, endpointID, true
}

// next is what Write stores: s (shallow: entries shared) as the next
// serial, in this neonform's format.
func (s *State) next() (*State, error) {
	serial, err := s.nextSerial()
	if err != nil {
		return nil, err
	}
	n := *s
	n.FormatVersion, n.Serial = FormatVersion, serial
	return &n, nil
}

// nextSerial is the serial the next write of s stores. A serial at the
// largest int64 has no next: adding one would wrap it negative, and a
// negative serial breaks the comparison that tells two writers apart.
func (s *State) nextSerial() (int64, error) {
	if s.Serial == math.MaxInt64 {
		return 0, fmt.Errorf("its serial is %d, the largest a serial can be, so no write can follow it; nothing was written. "+
			"Lower \"serial\" in the stored state by hand (to 1, say): neonform only compares it with the serial it read", s.Serial)
	}
	return s.Serial + 1, nil
}
