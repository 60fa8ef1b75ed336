package diff

import (
	"slices"
	"strconv"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/managed"
)

// reasons sets the reasons of a change that derive makes (reasonKinds'
// derived), for Build and Verify alike, beside those the planner recorded,
// in the order a change lists them. live is the endpoint the change acts
// on (nil for a create).
func (d *deriver) reasons(ch *Change, live *LiveEndpoint) {
	out := slices.DeleteFunc(ch.Reasons, func(r Reason) bool {
		_, derived, _ := kindOf(r.Kind)
		return derived
	})
	switch ch.Action {
	case Create:
		b := d.branch(ch.BranchID)
		out = append(out, Reason{Kind: ReasonNewCompute, Type: ch.Type, Branch: &b})
	case Delete:
		if d.scope.destroy {
			out = append(out, Reason{Kind: ReasonDestroy, EndpointID: ch.EndpointID})
		}
	default:
		switch {
		case ch.Adopt && live.Type == api.EndpointTypeReadWrite:
			out = append(out, Reason{Kind: ReasonAdoptPrimary, EndpointID: live.ID})
		case ch.Adopt:
			out = append(out, Reason{Kind: ReasonAdoptReplica, EndpointID: live.ID, Name: live.Name})
		}
		if ch.MovedFrom != "" && live.BranchID == ch.BranchID {
			out = append(out, Reason{Kind: ReasonMoved, From: ch.MovedFrom})
		}
		if ch.Action == Replace && d.scope.replace[ch.Address] {
			out = append(out, Reason{Kind: ReasonReplaceAsked})
		}
		out = append(out, attributeReasons(ch, d.branch)...)
	}
	slices.SortStableFunc(out, func(a, b Reason) int {
		ra, _, _ := kindOf(a.Kind)
		rb, _, _ := kindOf(b.Kind)
		return ra - rb
	})
	ch.Reasons = out
}

// withReason is reasons with r in its place: after every reason of its
// rank or before (reasonKinds).
func withReason(reasons []Reason, r Reason) []Reason {
	rank, _, _ := kindOf(r.Kind)
	i := len(reasons)
	for i > 0 {
		if before, _, _ := kindOf(reasons[i-1].Kind); before <= rank {
			break
		}
		i--
	}
	return slices.Insert(reasons, i, r)
}

// attributeReasons are what each disruptive attribute change does: a kind
// of the attribute's own when it has one (reasonOf), else its effect's.
func attributeReasons(ch *Change, branch func(id string) Branch) []Reason {
	var out []Reason
	restarts, recreate := 0, false
	for _, a := range ch.Attributes {
		recreate = recreate || a.Effect == Recreate
		if a.Effect == Restart {
			restarts++
		}
		if a.Effect == Recreate {
			out = append(out, Reason{Kind: ReasonAttributeRecreate, Attribute: a.Name})
			continue
		}
		if why := reasonOf[managed.Named(a.Name)]; why != nil {
			if r := why(a, branch); r.Kind != "" {
				out = append(out, r)
				continue
			}
		}
		switch a.Effect {
		case Restart:
			out = append(out, Reason{Kind: ReasonAttributeRestart, Attribute: a.Name})
		case Suspend:
			out = append(out, Reason{Kind: ReasonAttributeSuspend, Attribute: a.Name})
		}
	}
	// A recreate attribute makes the change a replace, which restarts nothing.
	if restarts > 1 && !recreate {
		out = append(out, Reason{Kind: ReasonOneRestart})
	}
	if !recreate && len(ch.Attributes) > 0 && ch.Disruption == None && len(out) == 0 {
		out = append(out, Reason{Kind: ReasonNoInterruption})
	}
	return out
}

// QuotedName is an endpoint's name in quotes, or HiddenValue when the name
// came from a sensitive variable.
func QuotedName(name string, sensitive Secrets) string {
	if sensitive.Hides(managed.Name.Name) {
		return sensitive.Value(managed.Name.Name)
	}
	return strconv.Quote(name)
}
