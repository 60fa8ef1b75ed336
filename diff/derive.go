package diff

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// derive fills in everything in p that follows from its changes, its
// recorded live endpoints and the state st it was made against: each change's
// type, branch, activity, disruption and size; the drift; the steps that carry
// the changes out, in order; and the summary. Build calls it to make a plan,
// Verify to check one: the steps apply runs are always these.
//
// It returns problems when the changes cannot be ordered (a read_write
// compute with nowhere to go), and an error when the changes contradict
// themselves or the recorded endpoints. names, when set, gives the branches
// their configured labels in reasons. With st nil, what needs the state is
// left out: the drift, the state-only steps, and what the steps record and
// forget; the calls to the service and their order are still derived.
func derive(p *Plan, st *state.State, names branchNames) (diag.Diagnostics, error) {
	return deriveContext(context.Background(), p, st, names)
}

// deriveContext is derive that gives up, with ctx's error, once ctx is done:
// an interrupt while planning stops it between projects and within the
// ordering of a large one. Its steps: the state indexed (indexState), the
// changes checked and grouped by project (changesByProject), each project
// derived (deriveProject), the summary counted.
func deriveContext(ctx context.Context, p *Plan, st *state.State, names branchNames) (diag.Diagnostics, error) {
	withState := st != nil
	if st == nil {
		st = &state.State{}
	}
	scope, err := scopeOf(p)
	if err != nil {
		return nil, err
	}
	holders, inState := indexState(st, len(p.Projects))
	byProject, err := changesByProject(p)
	if err != nil {
		return nil, err
	}
	if err := scope.check(p, st, holders, withState); err != nil {
		return nil, err
	}
	p.Steps, p.Drift = nil, nil
	var problems diag.Diagnostics
	nextID := 1
	for _, proj := range p.Projects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := &deriver{st: st, withState: withState, scope: scope, holders: holders, inState: inState[proj.ID], names: names[proj.ID], project: proj.ID,
			live: map[string]*LiveEndpoint{}, onBranch: map[string][]*LiveEndpoint{}, addressOf: map[string]string{}}
		orderProblems, err := d.deriveProject(ctx, p, &proj, byProject[proj.ID])
		if err != nil {
			return nil, err
		}
		problems = append(problems, orderProblems...)
		nextID = d.appendSteps(p, nextID)
	}
	p.Summary = summarize(p.Changes)
	p.Summary.StateOnly, p.Summary.ForgetGone = stateOnlySteps(p.Steps), goneSteps(p.Steps)
	p.Summary.Defaults = 0
	for _, dc := range p.Defaults {
		if len(dc.Attributes) > 0 {
			p.Summary.Defaults++
		}
	}
	return problems, nil
}

// indexState gives each endpoint its state address (holders: endpoint id
// -> address) and each project its state addresses, sorted (inState:
// project id -> addresses). projects: how many the plan has.
func indexState(st *state.State, projects int) (holders map[string]string, inState map[string][]string) {
	// Maps of their size at once: 100,000 computes grow them by doubling otherwise.
	holders = make(map[string]string, len(st.Computes))
	inState = make(map[string][]string, projects)
	// Each project's few addresses sorted on their own, cheaper than one
	// sort of all 100,000. Of two addresses with one endpoint (a state
	// Validate refuses), the last in order holds it, as before.
	// And each project's list sized at once, from a first count: a list
	// of 250,000 grows by a quarter at a time, some 20 MB for 4.
	sizes := make(map[string]int, projects)
	for _, c := range st.Computes {
		if c != nil {
			sizes[c.ProjectID]++
		}
	}
	for addr, c := range st.Computes {
		if c != nil {
			if prev, dup := holders[c.EndpointID]; !dup || addr > prev {
				holders[c.EndpointID] = addr
			}
			addrs := inState[c.ProjectID]
			if addrs == nil {
				addrs = make([]string, 0, sizes[c.ProjectID])
			}
			inState[c.ProjectID] = append(addrs, addr)
		}
	}
	for _, addrs := range inState {
		slices.Sort(addrs)
	}
	return holders, inState
}

// changesByProject groups the plan's changes by project id, refusing a
// change or a change of defaults in a project the plan does not plan, two
// changes for one address and two for one endpoint.
func changesByProject(p *Plan) (map[string][]*Change, error) {
	byProject := make(map[string][]*Change, len(p.Projects))
	planned := make(map[string]bool, len(p.Projects))
	for _, proj := range p.Projects {
		planned[proj.ID] = true
	}
	addresses, endpoints := make(map[string]bool, len(p.Changes)), make(map[string]string, len(p.Changes))
	for i := range p.Changes {
		ch := &p.Changes[i]
		if !planned[ch.ProjectID] {
			return nil, diag.ErrorAt(ch.Address, "Change in an unplanned project", fmt.Sprintf("change %s is in project %q, which is not among the plan's projects", ch.Address, ch.ProjectID))
		}
		if addresses[ch.Address] {
			return nil, diag.ErrorAt(ch.Address, "Two changes for one compute", fmt.Sprintf("two changes are for %s", ch.Address))
		}
		addresses[ch.Address] = true
		if other := endpoints[ch.EndpointID]; ch.EndpointID != "" && other != "" {
			return nil, diag.ErrorAt(ch.Address, "Two changes for one endpoint", fmt.Sprintf("changes %s and %s both act on endpoint %s", other, ch.Address, ch.EndpointID))
		}
		endpoints[ch.EndpointID] = ch.Address
		byProject[ch.ProjectID] = append(byProject[ch.ProjectID], ch)
	}
	defaultsOfProject := map[string]bool{}
	for _, dc := range p.Defaults {
		if !planned[dc.ProjectID] || defaultsOfProject[dc.ProjectID] || dc.Address == "" {
			return nil, diag.ErrorAt(dc.Address, "Defaults of an unplanned project",
				fmt.Sprintf("the change of %s is to project %q, which is not among the plan's projects, or not its only one", dc.Address, dc.ProjectID))
		}
		defaultsOfProject[dc.ProjectID] = true
	}
	return byProject, nil
}

// deriveProject derives the steps of one project's changes, its drift into
// p.Drift, and orders the steps; it returns the problems of their order.
func (d *deriver) deriveProject(ctx context.Context, p *Plan, proj *Project, changes []*Change) (diag.Diagnostics, error) {
	for i := range proj.Endpoints {
		ep := &proj.Endpoints[i]
		if d.live[ep.ID] != nil {
			return nil, fmt.Errorf("project %s records endpoint %s twice", proj.ID, ep.ID)
		}
		d.live[ep.ID] = ep
		d.onBranch[ep.BranchID] = append(d.onBranch[ep.BranchID], ep)
	}
	if dc := defaultsOf(p, proj.ID); dc != nil {
		if err := d.defaults(dc, proj); err != nil {
			return nil, diag.ErrorAt(dc.Address, "Change does not agree with its values", fmt.Sprintf("change %s: %v", dc.Address, err))
		}
	}
	for i, ch := range changes {
		// One project may hold hundreds of thousands of changes: an
		// interrupt is looked at every 1,024 of them, not only between
		// projects (docs/apply.md, Interrupting).
		if i%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if err := d.change(ch); err != nil {
			return nil, diag.ErrorAt(ch.Address, "Change does not agree with its values", fmt.Sprintf("change %s: %v", ch.Address, err))
		}
	}
	if d.withState {
		if err := d.forgetRemoved(p.Forget, changes); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d.forgetGone(changes)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.Drift = d.drift(p.Drift, changes)
		if dd := defaultsDrift(d.st, proj, defaultsOf(p, proj.ID)); dd != nil && !d.scope.destroy && len(p.Targets) == 0 {
			p.Drift = append(p.Drift, *dd)
		}
	}
	return d.order(ctx)
}

// branchNames gives, per project id, a branch's label in the configuration
// ("shop.main"), "" when no branch block names it.
type branchNames map[string]func(branchID string) string

// deriver derives the steps of one project.
type deriver struct {
	st        *state.State
	withState bool
	scope     *planScope
	// inState are the state addresses of the project's computes, sorted.
	inState  []string
	holders  map[string]string
	names    func(string) string
	project  string
	live     map[string]*LiveEndpoint
	onBranch map[string][]*LiveEndpoint
	// addressOf names the endpoints that a change keeps (for reasons).
	addressOf map[string]string
	ops       []*op
}

// change checks that a change agrees with itself and with the live endpoint
// it acts on, sets its derived fields, and plans its steps.
func (d *deriver) change(ch *Change) error {
	var base Values
	var live *LiveEndpoint
	if ch.Action == Create {
		if ch.EndpointID != "" || ch.Adopt {
			return fmt.Errorf("a create acts on no existing endpoint, but it names %q", ch.EndpointID)
		}
		base = base.settled()
	} else {
		if live = d.live[ch.EndpointID]; live == nil {
			return fmt.Errorf("it acts on endpoint %q, which the plan did not see live in project %s", ch.EndpointID, d.project)
		}
		base = live.Values // read only: SetAfter copies a map before it changes it
		base = base.settled()
	}
	want := base
	for _, a := range ch.Attributes {
		at := managed.Named(a.Name)
		if at == nil {
			return fmt.Errorf("it has an attribute %q that neonform does not manage", a.Name)
		}
		if err := at.SetAfter(want.table(), a); err != nil {
			return err
		}
	}
	if err := checkAttributes(ch, base, want, d.scope.replace[ch.Address]); err != nil {
		return err
	}

	ch.Disruption = disruptionOf(ch.Action, ch.Attributes)
	ch.Size, ch.Downtime, ch.Active = "", false, live != nil && live.CurrentState != api.EndpointStateIdle
	ch.Type, ch.BranchID = want.Type, want.BranchID
	switch {
	case ch.Action == Create || ch.Action == Replace:
		ch.Size = sizeLine(want, ch.Attributes)
	case ch.Action == Update && changesSize(ch.Attributes):
		ch.Size = sizeLine(want, ch.Attributes)
	}
	if ch.Action != Create && ch.Action != Delete {
		d.addressOf[ch.EndpointID] = ch.Address
	}
	d.reasons(ch, live)
	return d.plan(ch, live, want)
}

// checkAttributes refuses a change whose attributes are not exactly what its
// values make: for a create, every attribute; otherwise what differs from the
// live endpoint, each with the effect the attribute table gives it. So what a
// person reads in the plan is what its steps send. asked: -replace asked to
// replace the compute, which then needs no attribute that forces it.
func checkAttributes(ch *Change, base, want Values, asked bool) error {
	var made []Attribute
	switch ch.Action {
	case Create:
		made = want.every()
	case Delete, NoOp, Update, Replace:
		made = Differences(base, want)
	default:
		return fmt.Errorf("its action %v is not one neonform carries out", ch.Action)
	}
	if len(made) != len(ch.Attributes) {
		return fmt.Errorf("it lists %d attributes, but its values differ from what is live in %d", len(ch.Attributes), len(made))
	}
	for i := range made {
		made[i].Sensitive, made[i].SensitiveFrom = ch.Attributes[i].Sensitive, ch.Attributes[i].SensitiveFrom
		if got, wantJSON := mustJSON(ch.Attributes[i]), mustJSON(made[i]); string(got) != string(wantJSON) {
			if made[i].Sensitive || Hides(ch.Sensitive, made[i].Name) {
				// The error may end up in a CI log: say which, not what.
				return fmt.Errorf("its attribute %s, whose values are sensitive, is not what its values make", ch.Attributes[i].Name)
			}
			return fmt.Errorf("its attribute %s is %s, but its values make %s", ch.Attributes[i].Name, got, wantJSON)
		}
	}
	switch ch.Action {
	case Delete, NoOp:
		if len(made) > 0 {
			return fmt.Errorf("a %v changes no attribute, but it lists %d", ch.Action, len(made))
		}
	case Update:
		if len(made) == 0 || recreates(made) {
			return fmt.Errorf("an update changes attributes that an update can change, and only those")
		}
	case Replace:
		if !recreates(made) && !asked {
			return fmt.Errorf("a replace changes an attribute that only a new endpoint can have, or is asked with -replace")
		}
	}
	return nil
}

// plan adds the steps of a change.
func (d *deriver) plan(ch *Change, live *LiveEndpoint, want Values) error {
	holder := ""
	if live != nil {
		holder = d.holders[live.ID]
	}
	if d.withState && (ch.Action == Update || ch.Action == NoOp) {
		switch from := moved(holder, ch); {
		case ch.Adopt && holder != "":
			return fmt.Errorf("it adopts %s, which the state already records as %s", live.ID, holder)
		case ch.MovedFrom != "" && ch.MovedFrom != from:
			return fmt.Errorf("it says it moves from %s, but the state records its endpoint %s at %q", ch.MovedFrom, live.ID, holder)
		}
	}
	switch ch.Action {
	case Create:
		d.addCreate(ch, want)
	case Replace:
		create := d.addCreate(ch, want)
		create.replaces = d.addDelete(ch, live)
	case Delete:
		d.addDelete(ch, live)
	case Update:
		return d.addUpdate(ch, live, want, moved(holder, ch))
	case NoOp:
		if d.withState {
			return d.addRecord(ch, live, want, holder)
		}
	}
	return nil
}

// moved is the state address a change's endpoint leaves for the change's
// address: where a moved block, or an interrupted replacement, left it.
func moved(holder string, ch *Change) string {
	if holder != "" && holder != ch.Address {
		return holder
	}
	return ""
}

// addRecord adds the state-only step of a compute that needs no call: its
// adoption, its rename, taking back a deposed endpoint, or recording what is
// live and applied when the state says otherwise.
func (d *deriver) addRecord(ch *Change, live *LiveEndpoint, want Values, holder string) error {
	rec := recordOf(ch, want, live.ID)
	from := moved(holder, ch)
	var note string
	switch {
	case ch.Adopt:
		note = fmt.Sprintf("adopt %s: it already matches the configuration", live.ID)
	case holder == "":
		return fmt.Errorf("it keeps %s, which the state does not record and which it does not adopt", live.ID)
	case from != "":
		if base, _, deposed := state.Deposed(from); deposed {
			note = fmt.Sprintf("take back %s, left at %s by an interrupted replacement of %s", live.ID, from, base)
		} else {
			note = fmt.Sprintf("rename %s to %s (moved block)", from, ch.Address)
		}
	case sameRecord(d.st.Computes[holder], rec):
		return nil
	case sameRecord(withBranchName(d.st.Computes[holder], rec.BranchName), rec) && rec.BranchName != "":
		// A state written before it kept the name; from now on the plan
		// knows the branch without listing the project's branches.
		note = fmt.Sprintf("record that branch %q is %s", rec.BranchName, rec.BranchID)
	case sameRecord(withSensitive(d.st.Computes[holder], rec), rec):
		// A state written before it kept the list: from now on state show
		// hides these values too.
		note = "record which of its values come from sensitive variables"
	default:
		note = "record what is live and applied"
	}
	d.addOp(&op{change: ch, step: Step{Kind: StepState, Address: ch.Address, EndpointID: live.ID,
		Record: rec, MovedFrom: from, Note: note}})
	return nil
}

// forgetGone forgets the state entries whose endpoint was deleted outside
// neonform and that no change gives a new one.
func (d *deriver) forgetGone(changes []*Change) {
	recreated := map[string]bool{}
	for _, ch := range changes {
		if ch.MovedFrom != "" {
			recreated[ch.MovedFrom] = true
		}
		if ch.Action == Create {
			recreated[ch.Address] = true
		}
	}
	for _, addr := range d.inState {
		c := d.st.Computes[addr]
		if d.live[c.EndpointID] != nil || recreated[addr] || !d.scope.covers(addr) {
			continue
		}
		d.addOp(&op{step: Step{Kind: StepState, Address: addr, EndpointID: c.EndpointID, Forget: addr, Gone: true, Note: d.goneNote(addr, c)}})
	}
}

// goneNote says why a state entry is forgotten. An instance of a branch rule
// whose branch has no endpoint left was most likely deleted with its branch
// (a preview branch closed with its pull request): the note says so, from
// what the plan recorded, so that Verify derives the same words.
func (d *deriver) goneNote(addr string, c *state.Compute) string {
	if _, branch, _, err := config.ParseAddress(addr); err == nil && c.BranchName != "" && len(d.onBranch[c.BranchID]) == 0 {
		if _, _, keyed := config.SplitInstance(branch); keyed {
			return fmt.Sprintf("forget %s: its endpoint %s is gone, and branch %q (%s) has no endpoint left: deleted outside neonform, with its branch or alone",
				addr, c.EndpointID, c.BranchName, c.BranchID)
		}
	}
	return fmt.Sprintf("forget %s: its endpoint %s was deleted outside neonform", addr, c.EndpointID)
}

// drift appends to dst the managed computes that changed outside neonform
// since the last apply, sorted by address: what the state says was applied
// against what is live, by the attribute table's equality rules. Appended
// in place, not made apart and copied: 250,000 gone computes are 20 MB of
// drift.
func (d *deriver) drift(dst []Drift, changes []*Change) []Drift {
	addrOf := map[string]string{} // state address -> the address the plan gives it
	for _, ch := range changes {
		if ch.MovedFrom != "" {
			addrOf[ch.MovedFrom] = ch.Address
		}
	}
	out, start := dst, len(dst)
	if d.scope.destroy {
		return dst // what changed does not matter: it all goes
	}
	// Room for the gone computes at once: a large list grows by a quarter
	// at a time, and 250,000 of them grown so allocated 100 MB for 20.
	gone := 0
	for _, addr := range d.inState {
		if d.live[d.st.Computes[addr].EndpointID] == nil {
			gone++
		}
	}
	out = slices.Grow(out, gone)
	for _, addr := range d.inState {
		c := d.st.Computes[addr]
		if a := addrOf[addr]; a != "" {
			addr = a
		}
		if !d.scope.covers(addr) {
			continue // not planned: a partial plan says nothing of it
		}
		live := d.live[c.EndpointID]
		if live == nil {
			out = append(out, Drift{Address: addr, ProjectID: d.project, EndpointID: c.EndpointID, Gone: true, Attributes: []Attribute{}})
			continue
		}
		attrs := Differences(AppliedValues(c), live.Values)
		for i := range attrs {
			attrs[i].Effect = None // nothing neonform does: it happened
		}
		if len(attrs) > 0 {
			out = append(out, Drift{Address: addr, ProjectID: d.project, EndpointID: live.ID, Attributes: attrs})
		}
	}
	slices.SortFunc(out[start:], func(a, b Drift) int { return strings.Compare(a.Address, b.Address) })
	return out
}

// recordOf is the state entry of a change's compute once it has the values
// want, on endpoint endpointID ("" for a create: the answer gives it).
func recordOf(ch *Change, want Values, endpointID string) *state.Compute {
	rec := want.Record(endpointID, ch.ProjectID, ch.PreventDestroy)
	rec.BranchName = ch.BranchName
	rec.Sensitive, rec.SensitiveFrom = slices.Clone(ch.Sensitive), state.CloneSensitiveFrom(ch.SensitiveFrom)
	return rec
}

// withBranchName is a copy of c with another branch name.
func withBranchName(c *state.Compute, name string) *state.Compute {
	if c == nil {
		return nil
	}
	cc := *c
	cc.BranchName = name
	return &cc
}

// withSensitive is a copy of c with the sensitive attributes of r, and
// their variables.
func withSensitive(c *state.Compute, r *state.Compute) *state.Compute {
	if c == nil {
		return nil
	}
	cc := *c
	cc.Sensitive, cc.SensitiveFrom = r.Sensitive, r.SensitiveFrom
	return &cc
}

// sameRecord reports whether the state entry already says what r would
// record, by the attribute table's equality rules, so no state-only step is
// needed.
func sameRecord(c *state.Compute, r *state.Compute) bool {
	return c != nil && c.EndpointID == r.EndpointID && c.ProjectID == r.ProjectID && c.PreventDestroy == r.PreventDestroy &&
		c.BranchName == r.BranchName && slices.Equal(c.Sensitive, r.Sensitive) &&
		maps.EqualFunc(c.SensitiveFrom, r.SensitiveFrom, slices.Equal) && len(Differences(AppliedValues(c), AppliedValues(r))) == 0
}

// branch is a branch with its label, when the plan knows it.
func (d *deriver) branch(id string) Branch {
	if d.names != nil {
		return Branch{ID: id, Label: d.names(id)}
	}
	return Branch{ID: id}
}

// branchName is a branch as people know it, when the plan knows its label.
func (d *deriver) branchName(id string) string { return d.branch(id).String() }
