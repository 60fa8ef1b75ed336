package diff

import (
	"fmt"

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
	if s.Kind == StepDefaults || s.Defaults != nil { // a project's compute defaults, changed or recorded
		if s.Defaults == nil {
			return fmt.Errorf("step %d (%s): a change to a project's defaults needs its request to record it", s.ID, s.Address)
		}
		if st.Defaults == nil {
			st.Defaults = map[string]*state.Defaults{}
		}
		st.Defaults[s.Address] = defaultsApplied(s.Defaults, s.ProjectID)
		return nil
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
		rec := *s.Record
		rec.Applied = rec.Applied.Clone()
		if s.Kind == StepCreate {
			rec.EndpointID = createdID
		}
		st.Computes[s.Address] = &rec
	}
	return nil
}
