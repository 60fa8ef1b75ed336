package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/state"
)

// Verify derives the steps of a plan again, from its changes, the live
// endpoints it recorded and st, the state it was made against (apply checks
// first that the state has not moved on). It refuses the plan, naming the
// first thing that differs, when the file holds anything but what those
// derive: a step edited, added, removed or moved, a change whose attributes
// do not match its values, a disruption or a summary that says less than the
// changes do. It returns the derived steps, with their requests: the only
// steps apply carries out. So what a reviewer reads is what runs.
func Verify(p *Plan, st *state.State) ([]Step, error) {
	d, err := rederive(p, st)
	if err != nil {
		return nil, err
	}
	if err := sameSteps(p.Steps, d.Steps); err != nil {
		return nil, err
	}
	if err := sameDerived(p, d, true); err != nil {
		return nil, err
	}
	return d.Steps, nil
}

// Check is the part of Verify that needs no state: the changes agree with
// their attributes and with the recorded live endpoints, and the plan's
// disruptions and summary say what the changes do. show runs it, so that it
// never renders a plan that says less than what apply would carry out.
func Check(p *Plan) error {
	d, err := rederive(p, nil)
	if err != nil {
		return err
	}
	return sameDerived(p, d, false)
}

// rederive derives a copy of p from its primary content: the changes'
// addresses, actions, endpoints and attributes, and the recorded endpoints.
func rederive(p *Plan, st *state.State) (*Plan, error) {
	d := &Plan{Projects: make([]Project, len(p.Projects)), Changes: make([]Change, len(p.Changes))}
	for i, proj := range p.Projects {
		if !slices.IsSortedFunc(proj.Endpoints, func(a, b LiveEndpoint) int { return strings.Compare(a.ID, b.ID) }) {
			return nil, fmt.Errorf("project %s: its recorded live endpoints are not in id order", proj.ID)
		}
		if digestOf(proj.Endpoints) != proj.LiveDigest {
			return nil, fmt.Errorf("project %s: its recorded live endpoints do not match its live_digest %s", proj.ID, proj.LiveDigest)
		}
		proj.Endpoints = slices.Clone(proj.Endpoints)
		for j := range proj.Endpoints {
			proj.Endpoints[j].Values = proj.Endpoints[j].Values.clone()
		}
		d.Projects[i] = proj
	}
	for i, ch := range p.Changes {
		ch.Attributes = slices.Clone(ch.Attributes)
		ch.Reasons = slices.Clone(ch.Reasons)
		d.Changes[i] = ch
	}
	problems, err := derive(d, st, nil)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s cannot be ordered: %s", problems[0].address, problems[0].summary)
	}
	normalize(d)
	return d, nil
}

// sameSteps names the first step of the file that is not the derived one.
func sameSteps(file, derived []Step) error {
	for i := 0; i < max(len(file), len(derived)); i++ {
		switch {
		case i >= len(file):
			return fmt.Errorf("the changes make a step %d (%s, %s) that the plan file does not have", derived[i].ID, derived[i].Address, callWords(&derived[i]))
		case i >= len(derived):
			return fmt.Errorf("the plan file has a step %d (%s, %s) that its changes do not make", file[i].ID, file[i].Address, callWords(&file[i]))
		}
		if field, got, want := firstDifference(file[i], derived[i]); field != "" {
			return fmt.Errorf("step %d (%s, %s) is not what the plan's changes make: its %s is %s in the file, but %s from the changes",
				file[i].ID, file[i].Address, callWords(&file[i]), field, got, want)
		}
	}
	return nil
}

func callWords(s *Step) string {
	if s.Kind == StepState {
		return "state only"
	}
	return s.Method + " " + s.Path
}

// firstDifference compares two values field by field as the plan file
// writes them, and returns the first field (in the file's order) that
// differs, with both values; "" when they are the same.
func firstDifference(got, want any) (field, gotText, wantText string) {
	g, w := fieldsOf(got), fieldsOf(want)
	keys := g.order
	for _, k := range w.order {
		if _, ok := g.values[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if gv, wv := g.values[k], w.values[k]; gv != wv {
			return k, orAbsent(gv), orAbsent(wv)
		}
	}
	return "", "", ""
}

type fields struct {
	order  []string
	values map[string]string
}

// fieldsOf is the JSON of each field of a value, in the order it is written.
func fieldsOf(v any) fields {
	dec := json.NewDecoder(bytes.NewReader(mustJSON(v)))
	f := fields{values: map[string]string{}}
	if _, err := dec.Token(); err != nil { // the opening {
		return f
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		k, _ := t.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			break
		}
		f.order = append(f.order, k)
		f.values[k] = string(value)
	}
	return f
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}

// sameDerived names the first derived field of the file's changes, drift
// and summary that is not what the changes make.
func sameDerived(file, derived *Plan, withState bool) error {
	if len(file.Changes) != len(derived.Changes) {
		return fmt.Errorf("the plan has %d changes, but derived %d", len(file.Changes), len(derived.Changes))
	}
	for i := range file.Changes {
		got, want := file.Changes[i], derived.Changes[i]
		got.Reasons, want.Reasons = nil, nil // words for people, made with the configuration's names
		if !withState {
			got.Downtime, want.Downtime = false, false // the order of the steps decides it
		}
		if field, g, w := firstDifference(got, want); field != "" {
			return fmt.Errorf("change %s is not what its attributes make: its %s is %s in the file, but %s from the attributes", got.Address, field, g, w)
		}
	}
	if got, want := mustJSON(file.Summary), mustJSON(derived.Summary); string(got) != string(want) {
		return fmt.Errorf("the summary is %s, but the changes make %s", got, want)
	}
	if !withState {
		return nil
	}
	if len(file.Drift) != len(derived.Drift) {
		return fmt.Errorf("the plan lists %d computes changed outside neonform, but the state and the live endpoints show %d", len(file.Drift), len(derived.Drift))
	}
	for i := range file.Drift {
		got, want := file.Drift[i], derived.Drift[i]
		got.Attributes, want.Attributes = insensitive(got.Attributes), insensitive(want.Attributes)
		if field, g, w := firstDifference(got, want); field != "" {
			return fmt.Errorf("the change outside neonform of %s is not what the state and the live endpoints show: its %s is %s in the file, but %s",
				got.Address, field, g, w)
		}
	}
	return nil
}

// insensitive is attrs with Sensitive cleared: the configuration decides it,
// and it only hides values from people.
func insensitive(attrs []Attribute) []Attribute {
	out := slices.Clone(attrs)
	for i := range out {
		out[i].Sensitive = false
	}
	return out
}
