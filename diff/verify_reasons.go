package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// sameReasons refuses a change of the file whose reasons are not what its
// derived twin gives: derive made the derived kinds again from the change
// (reasons.go) and kept the file's others, so any edit of a derived reason,
// or one out of its place, differs; each of the others must fit the change
// (fitted). What is compared leaves out the words (Text, the plan file's
// business), a branch's label (the configuration's, which a plan file does
// not carry) and, without the state, which compute holds the endpoint in
// the way of a downtime (the state says it).
func sameReasons(got, want *Change, live map[string]*LiveEndpoint, withState bool) error {
	for i, r := range got.Reasons {
		if _, derived, _ := kindOf(r.Kind); derived {
			continue
		}
		if f, ok := fitted(got, r, live); !ok || !sameReason(f, r, true) {
			return reasonError(got.Address, fmt.Sprintf("its reason %d (%s) does not fit the change", i+1, factsOf(compared(r, true))))
		}
	}
	n := max(len(got.Reasons), len(want.Reasons))
	for i := range n {
		switch {
		case i >= len(got.Reasons):
			return reasonError(got.Address, fmt.Sprintf("the change gives a reason %s that the file does not have", factsOf(compared(want.Reasons[i], withState))))
		case i >= len(want.Reasons):
			return reasonError(got.Address, fmt.Sprintf("the file has a reason %s that the change does not give", factsOf(compared(got.Reasons[i], withState))))
		case !sameReason(got.Reasons[i], want.Reasons[i], withState):
			return reasonError(got.Address, fmt.Sprintf("its reason %d is %s in the file, but %s from the change",
				i+1, factsOf(compared(got.Reasons[i], withState)), factsOf(compared(want.Reasons[i], withState))))
		}
	}
	return nil
}

// factsOf is a reason's kind and facts as JSON, as an error quotes them
// (compared has dropped the words).
func factsOf(r Reason) string {
	return strings.Replace(string(mustJSON(r)), `,"text":""`, "", 1)
}

func reasonError(address, what string) error {
	return diag.ErrorAt(address, "Change differs from its attributes",
		fmt.Sprintf("change %s is not what its attributes make: %s", address, what))
}

// sameReason reports whether two reasons are the same as Verify compares
// them (compared), without encoding them: a large plan has many.
func sameReason(a, b Reason, withState bool) bool {
	if (a.Branch == nil) != (b.Branch == nil) || a.Branch != nil && a.Branch.ID != b.Branch.ID ||
		(a.ToBranch == nil) != (b.ToBranch == nil) || a.ToBranch != nil && a.ToBranch.ID != b.ToBranch.ID {
		return false
	}
	a.Branch, a.ToBranch, b.Branch, b.ToBranch = nil, nil, nil, nil
	return compared(a, withState) == compared(b, withState)
}

// compared is r as Verify compares it: without its branches' labels and,
// without the state, the holder of a downtime's endpoint.
func compared(r Reason, withState bool) Reason {
	if r.Branch != nil {
		r.Branch = &Branch{ID: r.Branch.ID}
	}
	if r.ToBranch != nil {
		r.ToBranch = &Branch{ID: r.ToBranch.ID}
	}
	if !withState && r.Kind == ReasonDowntime {
		r.Address = "" // which compute holds the endpoint: the state says
	}
	return r
}

// fitted is the reason of kind r.Kind that the planner would record for ch:
// its facts that follow from the change are the change's; those that follow
// from the configuration or the state's history are r's, if they can be.
// ok is false for a kind the planner does not record for such a change.
func fitted(ch *Change, r Reason, live map[string]*LiveEndpoint) (f Reason, ok bool) {
	f = Reason{Kind: r.Kind}
	switch r.Kind {
	case ReasonEndpointDeletedOutside:
		f.EndpointID = r.EndpointID // the state's: gone since
		return f, ch.Action == Create && r.EndpointID != "" && live[r.EndpointID] == nil
	case ReasonTakeBack:
		f.EndpointID, f.From = ch.EndpointID, r.From
		base, id, deposed := state.Deposed(r.From)
		return f, (ch.Action == NoOp || ch.Action == Update || ch.Action == Replace) && deposed && base == ch.Address && id == ch.EndpointID
	case ReasonNamedAfterLabel:
		i := slices.IndexFunc(ch.Attributes, func(a Attribute) bool { return a.Name == managed.Name.Name })
		if ch.Action != Replace || i < 0 || ch.Attributes[i].Before != "" {
			return f, false
		}
		name, isText := ch.Attributes[i].After.(string)
		f.Name = name
		return f, isText
	case ReasonNoLongerConfigured, ReasonRemovedBlock:
		f.EndpointID = ch.EndpointID
		return f, ch.Action == Delete
	case ReasonMayBeRenamed:
		// The compute it may be is deleted: its endpoint is live, a
		// compute of the create's type on the create's branch.
		f.EndpointID, f.From = r.EndpointID, r.From
		ep := live[r.EndpointID]
		return f, ch.Action == Create && r.From != "" && ep != nil && ep.BranchID == ch.BranchID && ep.Type == ch.Type
	case ReasonReplacementSuperseded, ReasonInterruptedReplace, ReasonInterruptedReplaceUnconfigured:
		f.EndpointID, f.Address = ch.EndpointID, r.Address // the compute the replacement was of
		return f, ch.Action == Delete && r.Address != ""
	case ReasonExclusiveBranch:
		ep := live[ch.EndpointID]
		if ch.Action != Delete || ep == nil {
			return f, false
		}
		f.EndpointID, f.Type, f.Name, f.Branch = ep.ID, ep.Type, ep.Name, &Branch{ID: ep.BranchID}
		return f, true
	}
	return f, false
}

// liveByID is every endpoint the plan recorded, by id.
func liveByID(p *Plan) map[string]*LiveEndpoint {
	out := map[string]*LiveEndpoint{}
	for i := range p.Projects {
		for j := range p.Projects[i].Endpoints {
			ep := &p.Projects[i].Endpoints[j]
			out[ep.ID] = ep
		}
	}
	return out
}
