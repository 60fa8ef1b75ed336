package managed

import (
	"sync"

	"github.com/neonform/neonform/api"
)

// The table's readings of whole Values: each goes through every entry, in
// the plan's order (InPlan). An entry's kind is an interface, so a Values
// whose address it is given escapes to the heap: each comparison, each
// reading of a live endpoint allocated a copy, over a million in a plan of
// 100,000 computes (110 MB of its 310). They work in a pooled scratch
// instead, allocated once.
var scratch = sync.Pool{New: func() any { return new([2]Values) }}

func getScratch() *[2]Values { return scratch.Get().(*[2]Values) }

// putScratch returns a pair, emptied so that it keeps no map or string alive.
func putScratch(s *[2]Values) {
	*s = [2]Values{}
	scratch.Put(s)
}

// LiveValues reads the managed attributes of a live endpoint.
func LiveValues(ep *api.Endpoint) Values {
	return read(func(k kind, v *Values) { k.fromLive(v, ep) })
}

// read is the Values that each attribute's from sets, in a pooled scratch.
func read(from func(k kind, v *Values)) Values {
	s := getScratch()
	defer putScratch(s)
	for _, a := range InPlan {
		from(a.kind, &s[0])
	}
	return s[0]
}

// DefaultsValues reads a project's defaults (nil: none) as what a compute
// created without values of its own gets: the project's, else each
// attribute's Default; only the attributes a project's defaults have
// (ProjectDefault) are set.
func DefaultsValues(d *api.DefaultEndpointSettings) Values {
	return read(func(k kind, v *Values) { k.fromDefaults(v, d) })
}

// Empty is what a compute block labelled label that writes nothing asks
// for: every attribute at its Default (the branch, which the block's place
// says, empty).
func Empty(label string) Values {
	return read(func(k kind, v *Values) { k.fromDefault(v, label) })
}

// DefaultsSent is the update of a project's defaults that gives it v's
// values of the attributes it has.
func DefaultsSent(v Values) api.DefaultsSent {
	var sent api.DefaultsSent
	each(v, func(k kind, v *Values) { k.toDefaults(&sent, v) })
	return sent
}

// each calls f with each attribute's kind and v, in a pooled scratch.
func each(v Values, f func(k kind, v *Values)) {
	s := getScratch()
	defer putScratch(s)
	s[0] = v
	for _, a := range InPlan {
		f(a.kind, &s[0])
	}
}

// Differences lists the plan attributes whose value differs between before
// and after by each attribute's equality rule (the suspend timeout's
// service default equals 300 s), or, when exact, at all (what a digest
// notices), each with what changing it does to a running compute.
func Differences(before, after Values, exact bool) []Change {
	s := getScratch()
	defer putScratch(s)
	s[0], s[1] = before, after
	var out []Change
	for _, a := range InPlan {
		out = append(out, a.kind.differences(&s[0], &s[1], exact)...)
	}
	return out
}

// Initial lists each attribute of v as a create sets it: before is null.
func Initial(v Values) []Change {
	var out []Change
	each(v, func(k kind, v *Values) { out = append(out, k.initial(v)...) })
	return out
}

// CreateRequest is the body of a create that makes a compute with values v.
func CreateRequest(v Values) *api.EndpointCreate {
	var e api.EndpointCreate
	each(v, func(k kind, v *Values) { k.toCreate(&e, v) })
	return &e
}

// UpdateRequest is the body of the one update that takes an endpoint from
// before to after: every attribute that differs, by the equality rules, at
// its new value. ok is false when one of them no update can change.
func UpdateRequest(before, after Values) (req api.EndpointUpdate, ok bool) {
	ok = true
	s := getScratch()
	defer putScratch(s)
	s[0], s[1] = before, after
	for _, a := range InPlan {
		if a.kind.differences(&s[0], &s[1], false) != nil && !a.kind.toUpdate(&req, &s[1]) {
			ok = false
		}
	}
	return req, ok
}

// Row is one managed attribute as people read it.
type Row struct{ Name, Value string }

// Rows lists every managed attribute of v, in the plan's order, as the plan
// prints values; hidden, when not nil, is what is printed in place of the
// value of an attribute it names (a setting's name stays: it is the
// configuration's word, and says which setting it is).
func Rows(v Values, hidden func(a *Attribute) (string, bool)) []Row {
	out := make([]Row, 0, len(InPlan))
	for _, a := range InPlan {
		value := a.kind.show(&v)
		if hidden != nil {
			if h, ok := hidden(a); ok {
				value = a.kind.showHidden(&v, h)
			}
		}
		out = append(out, Row{Name: a.Name, Value: value})
	}
	return out
}
