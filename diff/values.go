package diff

import (
	"maps"
	"sync"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
	"github.com/neonform/neonform/state"
)

// Values are the managed attributes of one compute, in the service's terms:
// what a live endpoint has, what a compute block asks for, or what the state
// says was applied. Each is read, compared and sent as the attribute table
// (attributes.go) says; nothing else lists them.
type Values struct {
	Type                  api.EndpointType  `json:"type"`
	BranchID              string            `json:"branch_id"`
	Name                  string            `json:"name"`
	MinCU                 float64           `json:"min_cu"`
	MaxCU                 float64           `json:"max_cu"`
	SuspendTimeoutSeconds int64             `json:"suspend_timeout_seconds"`
	PgSettings            map[string]string `json:"pg_settings"`
	Disabled              bool              `json:"disabled"`
}

// LiveValues reads the managed attributes of a live endpoint.
func LiveValues(ep *api.Endpoint) Values {
	return read(func(a attribute, v *Values) { a.fromLive(v, ep) })
}

// ConfiguredValues reads what a compute block asks for; branchID is its
// branch block's resolved id.
func ConfiguredValues(c *config.Compute, branchID string) Values {
	return read(func(a attribute, v *Values) { a.fromConfig(v, c, branchID) })
}

// read is the Values that each attribute's from sets, in a pooled scratch
// (an interface call's argument escapes: see scratch).
func read(from func(a attribute, v *Values)) Values {
	s := getScratch()
	defer putScratch(s)
	for _, a := range attributes {
		from(a, &s[0])
	}
	return s[0]
}

// WantedValues is what a compute block asks of ep, the endpoint it already
// is, or of the endpoint it creates when ep is nil: what it configures, with
// the name it asks of an endpoint named as ep is (config.Compute.NameFor).
func WantedValues(c *config.Compute, branchID string, ep *api.Endpoint) Values {
	if ep == nil {
		return wantedValues(c, branchID, nil)
	}
	return wantedValues(c, branchID, &ep.Name)
}

// wantedValues is WantedValues of an endpoint named *liveName (nil: none).
func wantedValues(c *config.Compute, branchID string, liveName *string) Values {
	v := ConfiguredValues(c, branchID)
	if liveName != nil {
		v.Name = c.NameFor(*liveName)
	}
	return v
}

// AppliedValues reads what a state entry says was last applied.
func AppliedValues(sc *state.Compute) Values {
	return read(func(a attribute, v *Values) { a.fromState(v, sc) })
}

// Record is the state entry of a compute with these values: what a step
// records once it is done, and what import records of a live endpoint.
func (v Values) Record(endpointID, projectID string, preventDestroy bool) *state.Compute {
	sc := &state.Compute{EndpointID: endpointID, ProjectID: projectID, PreventDestroy: preventDestroy}
	s := getScratch()
	defer putScratch(s)
	s[0] = v
	for _, a := range attributes {
		a.toState(sc, &s[0])
	}
	return sc
}

// Differences lists the attributes whose value differs between before and
// after by each attribute's equality rule (the suspend timeout's service
// default equals 300 s), with what changing it does to a running compute.
func Differences(before, after Values) []Attribute {
	return differences(before, after, false)
}

// ExactDifferences lists the attributes whose value differs at all: what a
// digest of the values notices.
func ExactDifferences(before, after Values) []Attribute {
	return differences(before, after, true)
}

func differences(before, after Values, exact bool) []Attribute {
	s := getScratch()
	defer putScratch(s)
	s[0], s[1] = before, after
	var out []Attribute
	for _, a := range attributes {
		out = append(out, a.differences(&s[0], &s[1], exact)...)
	}
	return out
}

// InPlace reports whether a live endpoint already has every value of want,
// by the equality rules: after an update whose answer was lost, it tells a
// change that was made (never send it again) from one that was not.
func InPlace(ep *api.Endpoint, want Values) bool {
	return len(Differences(LiveValues(ep), want)) == 0
}

// every lists each attribute of v as a create sets it: before is null.
func (v Values) every() []Attribute {
	s := getScratch()
	defer putScratch(s)
	s[0] = v
	var out []Attribute
	for _, a := range attributes {
		out = append(out, a.initial(&s[0])...)
	}
	return out
}

// createRequest is the body of a create that makes a compute with these values.
func (v Values) createRequest() *api.EndpointCreate {
	var e api.EndpointCreate
	s := getScratch()
	defer putScratch(s)
	s[0] = v
	for _, a := range attributes {
		a.toCreate(&e, &s[0])
	}
	return &e
}

// updateRequest is the body of the one update that takes an endpoint from
// before to after: every attribute that differs, by the equality rules, at
// its new value. ok is false when one of them no update can change.
func updateRequest(before, after Values) (req api.EndpointUpdate, ok bool) {
	ok = true
	s := getScratch()
	defer putScratch(s)
	s[0], s[1] = before, after
	for _, a := range attributes {
		if a.differences(&s[0], &s[1], false) != nil && !a.toUpdate(&req, &s[1]) {
			ok = false
		}
	}
	return req, ok
}

// scratch holds the Values that the attribute table reads and writes. The
// table's methods are interface calls, so a Values whose address they are
// given escapes to the heap: each comparison, each reading of a state entry
// or a compute block allocated a copy, over a million in a plan of 100,000
// computes (110 MB of its 310). Pooled pairs are allocated once.
var scratch = sync.Pool{New: func() any { return new([2]Values) }}

func getScratch() *[2]Values { return scratch.Get().(*[2]Values) }

// putScratch returns a pair, emptied so that it keeps no map or string alive.
func putScratch(s *[2]Values) {
	*s = [2]Values{}
	scratch.Put(s)
}

// size is v's size, as sizing reads it.
func (v Values) size() sizing.Size { return sizing.Size{Min: v.MinCU, Max: v.MaxCU} }

// usage is what the cost of a compute with these values follows from, before
// any hint of its active hours (sizing.NeverSuspends says when it never
// scales to zero).
func (v Values) usage() sizing.Usage {
	return sizing.Usage{Min: v.MinCU, Max: v.MaxCU, NeverSuspends: sizing.NeverSuspends(v.MaxCU, v.SuspendTimeoutSeconds), Disabled: v.Disabled}
}

// ShownSize is a recorded compute's size as `neonform output` shows it:
// each end a number, or the words that hide it when it came from a
// sensitive variable.
type ShownSize struct {
	Min any `json:"min_cu"`
	Max any `json:"max_cu"`
}

// AppliedSize is the size a state entry records, each end hidden as its
// secrets say.
func AppliedSize(c *state.Compute) ShownSize {
	s := SecretsOf(c)
	out := ShownSize{Min: c.Applied.MinCU, Max: c.Applied.MaxCU}
	if s.Hides(managed.MinCU.Name) {
		out.Min = s.Value(managed.MinCU.Name)
	}
	if s.Hides(managed.MaxCU.Name) {
		out.Max = s.Value(managed.MaxCU.Name)
	}
	return out
}

// settled is v with its settings never nil (managed.Settings): how derive,
// the live digest and a plan file hold them, so that "no settings" is {}
// wherever it is compared or written.
func (v Values) settled() Values {
	v.PgSettings = managed.Settings(v.PgSettings)
	return v
}

func (v Values) clone() Values {
	v.PgSettings = maps.Clone(v.PgSettings)
	return v
}
