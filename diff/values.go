package diff

import (
	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// Values are the managed attributes of one compute, in the service's terms:
// what a live endpoint has, what a compute block asks for, or what the state
// says was applied. They are the attribute table's managed.Values, with the
// plan's methods; each is read, compared and sent as the table says.
type Values managed.Values

// table is v as the attribute table reads it (the same value).
func (v *Values) table() *managed.Values { return (*managed.Values)(v) }

// LiveValues reads the managed attributes of a live endpoint.
func LiveValues(ep *api.Endpoint) Values { return Values(managed.LiveValues(ep)) }

// ConfiguredValues reads what a compute block asks for; branchID is its
// branch block's resolved id.
func ConfiguredValues(c *config.Compute, branchID string) Values {
	return Values(managed.Own(apiType(c.Type), branchID, &c.Applied))
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
	return Values(managed.Own(sc.Type, sc.BranchID, &sc.Applied))
}

// Record is the state entry of a compute with these values: what a step
// records once it is done, and what import records of a live endpoint.
func (v Values) Record(endpointID, projectID string, preventDestroy bool) *state.Compute {
	return &state.Compute{EndpointID: endpointID, ProjectID: projectID, PreventDestroy: preventDestroy,
		Type: v.Type, BranchID: v.BranchID, Applied: managed.Values(v).Recorded()}
}

// Differences lists the attributes whose value differs between before and
// after by each attribute's equality rule (the suspend timeout's service
// default equals 300 s), with what changing it does to a running compute.
func Differences(before, after Values) []Attribute {
	return managed.Differences(managed.Values(before), managed.Values(after), false)
}

// ExactDifferences lists the attributes whose value differs at all: what a
// digest of the values notices.
func ExactDifferences(before, after Values) []Attribute {
	return managed.Differences(managed.Values(before), managed.Values(after), true)
}

// InPlace reports whether a live endpoint already has every value of want,
// by the equality rules: after an update whose answer was lost, it tells a
// change that was made (never send it again) from one that was not.
func InPlace(ep *api.Endpoint, want Values) bool {
	return len(Differences(LiveValues(ep), want)) == 0
}

// every lists each attribute of v as a create sets it: before is null.
func (v Values) every() []Attribute { return managed.Initial(managed.Values(v)) }

// createRequest is the body of a create that makes a compute with these values.
func (v Values) createRequest() *api.EndpointCreate { return managed.CreateRequest(managed.Values(v)) }

// updateRequest is the body of the one update that takes an endpoint from
// before to after (managed.UpdateRequest); ok is false when one of the
// attributes that differ no update can change.
func updateRequest(before, after Values) (req api.EndpointUpdate, ok bool) {
	return managed.UpdateRequest(managed.Values(before), managed.Values(after))
}

// Rows lists every managed attribute of v, in the table's order, as the
// plan prints values.
func (v Values) Rows() []Row { return managed.Rows(managed.Values(v), nil) }

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
	var out ShownSize
	out.Min, out.Max = c.Applied.ShownSize(func(attribute string) (string, bool) {
		if !s.Hides(attribute) {
			return "", false
		}
		return s.Value(attribute), true
	})
	return out
}

// settled is v with its settings never nil (managed.Values.Settled): how
// derive, the live digest and a plan file hold them, so that "no settings"
// is {} wherever it is compared or written.
func (v Values) settled() Values { return Values(managed.Values(v).Settled()) }

func (v Values) clone() Values {
	v.Applied = v.Applied.Clone()
	return v
}
