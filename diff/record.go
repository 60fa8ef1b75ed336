package diff

import (
	"fmt"
	"maps"

	"github.com/neonform/neonform/state"
)

// UpdateState records in st what a successful step changed, in this order:
// drop Forget if it still points at the step's endpoint, drop MovedFrom, and
// write Record at Address. createdID is the id of the endpoint a create made
// (from the response); it is ignored for other steps. A state-only step is
// "successful" as soon as apply reaches it.
func (s *Step) UpdateState(st *state.State, createdID string) error {
	if s.Kind == StepCreate && createdID == "" {
		return fmt.Errorf("step %d (%s): a create needs the new endpoint's id to record it", s.ID, s.Address)
	}
	if st.Computes == nil {
		st.Computes = map[string]*state.Compute{}
	}
	if s.Forget != "" {
		if c, ok := st.Computes[s.Forget]; ok && (c == nil || c.EndpointID == s.EndpointID) {
			delete(st.Computes, s.Forget)
		}
	}
	if s.MovedFrom != "" {
		delete(st.Computes, s.MovedFrom)
	}
	if s.Record != nil {
		id := s.Record.EndpointID
		if s.Kind == StepCreate {
			id = createdID
		}
		st.Computes[s.Address] = s.Record.stateCompute(id)
	}
	return nil
}

func (r *Record) stateCompute(endpointID string) *state.Compute {
	return &state.Compute{
		EndpointID:     endpointID,
		ProjectID:      r.ProjectID,
		BranchID:       r.BranchID,
		Type:           r.Type,
		PreventDestroy: r.PreventDestroy,
		Applied: state.Attributes{
			Name:                  r.Applied.Name,
			MinCU:                 r.Applied.MinCU,
			MaxCU:                 r.Applied.MaxCU,
			SuspendTimeoutSeconds: r.Applied.SuspendTimeoutSeconds,
			PgSettings:            maps.Clone(r.Applied.PgSettings),
			Disabled:              r.Applied.Disabled,
		},
	}
}

// sameRecord reports whether the state entry already says what r would record,
// so no state-only step is needed.
func sameRecord(c *state.Compute, r *Record) bool {
	return c.EndpointID == r.EndpointID && c.ProjectID == r.ProjectID && c.BranchID == r.BranchID &&
		c.Type == r.Type && c.PreventDestroy == r.PreventDestroy &&
		c.Applied.Name == r.Applied.Name && c.Applied.MinCU == r.Applied.MinCU && c.Applied.MaxCU == r.Applied.MaxCU &&
		c.Applied.SuspendTimeoutSeconds == r.Applied.SuspendTimeoutSeconds && c.Applied.Disabled == r.Applied.Disabled &&
		sameSettings(c.Applied.PgSettings, r.Applied.PgSettings)
}

// sameSettings treats nil and empty as the same: both mean "no pg_settings".
func sameSettings(a, b map[string]string) bool { return maps.Equal(a, b) }
