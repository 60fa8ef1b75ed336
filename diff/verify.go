package diff

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/state"
)

// Verify derives the steps of a plan again, from its changes, the live
// endpoints it recorded and st, the state it was made against (apply checks
// first that the state has not moved on). It refuses the plan, naming the
// first thing that differs, when the file holds anything but what those
// derive: a step edited, added, removed or moved (a state-only one too), a
// change whose attributes do not match its values, a disruption or a summary
// that says less than the changes do; and a plan that breaks the rules every
// plan keeps (checkRules). It returns the derived steps, with their
// requests: the only steps apply carries out. So what a reviewer reads is
// what runs.
func Verify(p *Plan, st *state.State) ([]Step, error) {
	return VerifyContext(context.Background(), p, st)
}

// VerifyContext is Verify that gives up once ctx is done (an interrupt): it
// then returns ctx's error. It looks at ctx every interruptEvery changes or
// steps it derives or compares, so that it stops within a second however
// large the plan (docs/apply.md, Interrupting).
func VerifyContext(ctx context.Context, p *Plan, st *state.State) ([]Step, error) {
	look := newLooker(ctx)
	d, err := rederive(ctx, p, st)
	if err != nil {
		return nil, err
	}
	if err := sameSteps(look, p.Steps, d.Steps); err != nil {
		return nil, err
	}
	if err := sameDerived(look, p, d, true); err != nil {
		return nil, err
	}
	// The file's steps are the derived ones: the rules every plan keeps
	// hold of both, or the planner derives a plan apply cannot carry out.
	if err := checkRules(look, d); err != nil {
		return nil, err
	}
	return d.Steps, nil
}

// Check is the part of Verify that needs no state: the rules every plan
// keeps (checkRules: every step is a call apply carries out safely, and the
// state-only steps are counted), the changes agree with their
// attributes and with the recorded live endpoints, the plan's disruptions
// and summary say what the changes do, its calls to the service are the ones
// the changes make, in their order, and its state-only steps are as many as
// the summary counts, one at least for each adoption or rename that needs no
// call. show runs it (planfile.ReadFile), so that it never renders a plan that says
// less than what apply would carry out; what the state-only steps record,
// and those that follow from the state alone (forgetting an endpoint deleted
// outside neonform), only Verify can check.
func Check(p *Plan) error {
	return CheckContext(context.Background(), p)
}

// CheckContext is Check that gives up once ctx is done, as VerifyContext.
func CheckContext(ctx context.Context, p *Plan) error {
	look := newLooker(ctx)
	d, err := rederive(ctx, p, nil)
	if err != nil {
		return err
	}
	if err := sameCalls(look, p.Steps, d.Steps); err != nil {
		return err
	}
	if err := sameDerived(look, p, d, false); err != nil {
		return err
	}
	// After the comparisons, which name what an edit changed more plainly;
	// the rules hold the ids, the order and the state-only steps too.
	return checkRules(look, p)
}

// CheckMade holds a plan the planner made to the rules apply holds every
// plan to (checkRules), before anyone sees it: so plan never shows or saves
// a plan its own apply would refuse, and an error is a bug in neonform. The
// rest of what apply checks, that the plan's steps, summary and drift are
// what its changes derive, holds by construction (Build derives them with
// derive, as Verify does), and the tests check it, through the plan file,
// for every plan they make; doing it again here would cost a large plan
// half as much time again (docs/PERFORMANCE.md).
func CheckMade(p *Plan) error {
	return checkRules(newLooker(context.Background()), p)
}

// checkRules is what every plan must be, whoever made it: what plan checks
// of the plans it makes (CheckMade), and show and apply of every plan they
// are given (Check, Verify). Its steps are calls apply carries out safely
// (checkSteps), and its state-only steps are counted (stateOnlyCounted).
func checkRules(look *looker, p *Plan) error {
	if err := checkSteps(look, p); err != nil {
		return err
	}
	return stateOnlyCounted(p)
}

// stateOnlyCounted refuses a plan whose state-only steps are not as many as
// its summary says, or fewer than its changes need: a no-op change that
// adopts an endpoint or takes it from another address (a moved block)
// changes the state alone, in a step of its own.
func stateOnlyCounted(p *Plan) error {
	n := stateOnlySteps(p.Steps)
	if n != p.Summary.StateOnly {
		return fmt.Errorf("the plan file has %s, but its summary counts %d", english.Plural(n, "state-only step", "state-only steps"), p.Summary.StateOnly)
	}
	if g := goneSteps(p.Steps); g != p.Summary.ForgetGone {
		return fmt.Errorf("the plan file has %s, but its summary counts %d", english.Plural(g, "step that forgets a gone compute", "steps that forget a gone compute"), p.Summary.ForgetGone)
	}
	need := 0
	for _, ch := range p.Changes {
		if ch.Action == NoOp && (ch.Adopt || ch.MovedFrom != "") {
			need++
		}
	}
	if n < need {
		return fmt.Errorf("the plan file has %s, but its changes adopt or rename %s without a call, a state-only step each",
			english.Plural(n, "state-only step", "state-only steps"), english.Plural(need, "compute", "computes"))
	}
	return nil
}

// call is what of a step the service sees.
type call struct {
	Kind       StepKind        `json:"kind"`
	Address    string          `json:"address"`
	Method     string          `json:"method"`
	Path       string          `json:"path"`
	EndpointID string          `json:"endpoint_id"`
	Name       string          `json:"name"`
	Body       json.RawMessage `json:"body"`
}

// sameCalls names the first call to the service that differs between the
// file's steps and the derived ones (the state-only steps aside).
func sameCalls(look *looker, file, derived []Step) error {
	calls := func(steps []Step) (out []call, ids []int) {
		for _, s := range steps {
			if s.Kind != StepState {
				out = append(out, call{s.Kind, s.Address, s.Method, s.Path, s.EndpointID, s.Name, s.Body})
				ids = append(ids, s.ID)
			}
		}
		return out, ids
	}
	got, ids := calls(file)
	want, _ := calls(derived)
	for i := 0; i < max(len(got), len(want)); i++ {
		if err := look.stop(); err != nil {
			return err
		}
		switch {
		case i >= len(got):
			return diag.ErrorAt(want[i].Address, "Step missing from the plan file",
				fmt.Sprintf("the changes make a call %s %s (%s) that the plan file does not have", want[i].Method, want[i].Path, want[i].Address))
		case i >= len(want):
			return diag.ErrorAt(got[i].Address, "Step not made by the plan's changes",
				fmt.Sprintf("the plan file has a step %d (%s, %s %s) that its changes do not make", ids[i], got[i].Address, got[i].Method, got[i].Path))
		}
		if field, g, w := firstDifference(got[i], want[i]); field != "" {
			return diag.ErrorAt(got[i].Address, "Step differs from the plan's changes",
				fmt.Sprintf("step %d (%s, %s %s) is not what the plan's changes make: its %s is %s in the file, but %s from the changes",
					ids[i], got[i].Address, got[i].Method, got[i].Path, field, g, w))
		}
	}
	return nil
}

// rederive derives a copy of p from its primary content: the changes'
// addresses, actions, endpoints and attributes, the recorded endpoints, and
// the scope (targets, replace, destroy) the changes must keep to.
func rederive(ctx context.Context, p *Plan, st *state.State) (*Plan, error) {
	d := &Plan{Projects: make([]Project, len(p.Projects)), Changes: make([]Change, len(p.Changes)),
		Targets: p.Targets, Replace: p.Replace, Destroy: p.Destroy, Forget: p.Forget, Defaults: p.Defaults}
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
	problems, err := deriveContext(ctx, d, st, nil)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &diag.Error{Message: fmt.Sprintf("%s cannot be ordered: %s", problems[0].Address, problems[0].Summary), Diagnostics: problems}
	}
	Normalize(d)
	return d, nil
}

// sameSteps names the first step of the file that is not the derived one:
// one the changes do not make, one missing, or one that differs.
func sameSteps(look *looker, file, derived []Step) error {
	if len(file) > len(derived) {
		if s := firstNotIn(file, derived); s != nil {
			return diag.ErrorAt(s.Address, "Step not made by the plan's changes",
				fmt.Sprintf("the plan file has a step %d (%s, %s) that its changes do not make", s.ID, s.Address, callWords(s)))
		}
	}
	if len(file) < len(derived) {
		if s := firstNotIn(derived, file); s != nil {
			return diag.ErrorAt(s.Address, "Step missing from the plan file",
				fmt.Sprintf("the changes make a step %d (%s, %s) that the plan file does not have", s.ID, s.Address, callWords(s)))
		}
	}
	for i := 0; i < min(len(file), len(derived)); i++ {
		if err := look.stop(); err != nil {
			return err
		}
		if field, got, want := firstDifference(file[i], derived[i]); field != "" {
			return diag.ErrorAt(file[i].Address, "Step differs from the plan's changes",
				fmt.Sprintf("step %d (%s, %s) is not what the plan's changes make: its %s is %s in the file, but %s from the changes",
					file[i].ID, file[i].Address, callWords(&file[i]), field, got, want))
		}
	}
	if len(file) != len(derived) {
		return fmt.Errorf("the plan file has %d steps, but its changes make %d", len(file), len(derived))
	}
	return nil
}

// firstNotIn returns the first step of a that does the same as no step of
// b, whatever its id and order; nil when there is none.
func firstNotIn(a, b []Step) *Step {
	key := func(s Step) string {
		s.ID, s.After = 0, nil
		return string(mustJSON(s))
	}
	in := map[string]int{}
	for _, s := range b {
		in[key(s)]++
	}
	for i := range a {
		k := key(a[i])
		if in[k] == 0 {
			return &a[i]
		}
		in[k]--
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
	gb, wb := mustJSON(got), mustJSON(want)
	if bytes.Equal(gb, wb) {
		return "", "", ""
	}
	g, w := fieldsOf(gb), fieldsOf(wb)
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

// fieldsOf is the JSON of each field of an object, in the order it is written.
func fieldsOf(b []byte) fields {
	dec := json.NewDecoder(bytes.NewReader(b))
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
		f.values[k] = canonical(value)
	}
	return f
}

// canonical is a JSON value written one way, whatever the order of its keys
// or its spacing: two bodies that send the same request compare equal.
func canonical(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return string(mustJSON(v))
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}

// sameDerived names the first derived field of the file's changes, drift
// and summary that is not what the changes make.
func sameDerived(look *looker, file, derived *Plan, withState bool) error {
	if len(file.Changes) != len(derived.Changes) {
		return fmt.Errorf("the plan has %d changes, but derived %d", len(file.Changes), len(derived.Changes))
	}
	live := liveByID(file)
	for i := range file.Changes {
		if err := look.stop(); err != nil {
			return err
		}
		got, want := file.Changes[i], derived.Changes[i]
		got.Reasons, want.Reasons = nil, nil // compared below, as reasons
		if field, g, w := firstDifference(got, want); field != "" {
			return diag.ErrorAt(got.Address, "Change differs from its attributes",
				fmt.Sprintf("change %s is not what its attributes make: its %s is %s in the file, but %s from the attributes", got.Address, field, g, w))
		}
		if err := sameReasons(&file.Changes[i], &derived.Changes[i], live, withState); err != nil {
			return err
		}
	}
	want := derived.Summary
	if !withState {
		// Without the state, they are not derived (Check counts them).
		want.StateOnly, want.ForgetGone = file.Summary.StateOnly, file.Summary.ForgetGone
	}
	if got, want := mustJSON(file.Summary), mustJSON(want); string(got) != string(want) {
		return fmt.Errorf("the summary is %s, but the changes make %s", got, want)
	}
	if !withState {
		return nil
	}
	if len(file.Drift) != len(derived.Drift) {
		return fmt.Errorf("the plan lists %d computes changed outside neonform, but the state and the live endpoints show %d", len(file.Drift), len(derived.Drift))
	}
	for i := range file.Drift {
		if err := look.stop(); err != nil {
			return err
		}
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
		out[i].Sensitive, out[i].SensitiveFrom = false, nil
	}
	return out
}
