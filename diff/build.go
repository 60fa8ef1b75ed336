package diff

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// Options are the inputs of a plan besides config, state and live endpoints.
type Options struct {
	ToolVersion  string
	APIURL       string
	Now          time.Time
	ConfigDigest string
	// ConfigFiles is each configuration file's digest, by its name in the
	// directory (FileDigests), for apply to say which changed since.
	ConfigFiles map[string]string
	// Scope narrows the plan to some computes, asks for replacements, or
	// plans the deletion of everything (scope.go); fetch.Live must have read
	// the live endpoints with the same scope.
	Scope Scope
}

// planner holds one Build.
type planner struct {
	cfg *config.Config
	st  *state.State
	// No *Live: the live endpoints are read project by project, once, and a
	// plan's derivation must not keep them (with 10,000 projects, 60 MB).
	inConfig map[string]*config.Compute // by address
	diags    hcl.Diagnostics
	warnings []string
	// suggestions are the commands the warnings suggest (warn).
	suggestions []suggest.Command
	scope       *planScope

	// Once every project is planned, the configuration is let go (letGo):
	// what deriving the steps may still need of it is kept here.
	moves    []*config.Move
	declared map[string]declared // by address

	// removals are the removed blocks, by address (config/removed.go).
	removals map[string]*config.Removal

	// look stops the planning of a project midway at an interrupt.
	look *looker

	// eff are the state's entries at the addresses the moved blocks give
	// them, and byProject the same by project id: what the projects are
	// planned against.
	eff       map[string]*stateEntry
	byProject map[string][]*stateEntry
}

// declared is what a plan needs of a compute block after planning: where
// it is (the subject of a problem with its steps).
type declared struct {
	rng hcl.Range
}

// projectPlan is the planning of one project; projects are independent.
type projectPlan struct {
	pl       *planner
	p        *config.Project
	lp       *LiveProject
	live     map[string]*LiveEndpoint   // by id
	onBranch map[string][]*LiveEndpoint // by branch id, each in id order
	branchOf map[string]*config.Branch  // branch block by resolved branch id
	branchID map[*config.Branch]string
	entries  []*stateEntry     // state entries of this project, by address
	claimed  map[string]string // endpoint id -> address, for every state entry here
	taken    map[string]string // endpoint id -> configured address that matched it
	// superseded are entries at a configured address whose endpoint the
	// compute no longer takes: it took back its deposed endpoint instead.
	superseded map[*stateEntry]bool
	targets    []*target

	changes   []*Change
	unmanaged []Unmanaged
	// forget are the state addresses removed blocks let go (Plan.Forget).
	forget []string
}

// target is a configured compute and the live endpoint it is (nil: create).
type target struct {
	c        *config.Compute
	branchID string
	// byName is the name the branch block finds its branch by; "" when it
	// pins it by id.
	byName string
	entry  *stateEntry
	ep     *LiveEndpoint
	adopt  bool
}

// Build plans how to bring the live endpoints to what cfg declares, given what
// st says neonform manages. It returns no plan when the diagnostics hold an
// error: each says what is wrong and how to fix it.
func Build(cfg *config.Config, st *state.State, live *Live, opts Options) (*Plan, diag.Diagnostics) {
	plan, diags, _ := BuildContext(context.Background(), cfg, st, live, opts)
	return plan, diags
}

// BuildContext is Build that gives up once ctx is done (an interrupt): it
// then returns ctx's error and no plan. It looks at ctx between projects
// and while it orders the steps of a large one, so that it stops well
// within a second however large the state (docs/apply.md, Interrupting).
func BuildContext(ctx context.Context, cfg *config.Config, st *state.State, live *Live, opts Options) (*Plan, diag.Diagnostics, error) {
	plan, diags, err := build(ctx, cfg, st, live, opts)
	if err != nil {
		return nil, nil, err
	}
	return plan, diag.FromHCL(diags), nil
}

// build is BuildContext in hcl's diagnostics, which the planner makes:
// the planner set up (start), each project planned (planProjects), then
// what follows from the changes derived and checked (finish).
func build(ctx context.Context, cfg *config.Config, st *state.State, live *Live, opts Options) (*Plan, hcl.Diagnostics, error) {
	if st == nil {
		st = &state.State{}
	}
	if live == nil {
		live = &Live{}
	}
	pl := &planner{st: st, inConfig: map[string]*config.Compute{}, look: newLooker(ctx)}
	projects, ok := pl.start(cfg, live, opts.Scope)
	if !ok {
		return nil, pl.diags, nil
	}
	plan := &Plan{
		FormatVersion: FormatVersion,
		ToolVersion:   opts.ToolVersion,
		CreatedAt:     opts.Now.UTC().Truncate(time.Second),
		APIURL:        opts.APIURL,
		ConfigDigest:  opts.ConfigDigest,
		ConfigFiles:   opts.ConfigFiles,
		State:         stateRef(st),
		// A change for each configured compute (and each one deleted): room
		// for them at once, not a list grown by doubling, which holds the old
		// copy and the new at the end (50 MB at 100,000 computes).
		Changes: make([]Change, 0, len(pl.inConfig)),
	}
	opts.Scope.record(plan)
	names, err := pl.planProjects(ctx, plan, projects, live, len(opts.Scope.Targets) > 0)
	if err != nil {
		return nil, nil, err
	}
	return pl.finish(ctx, plan, names)
}

// start reads the configuration and the state into the planner: the branch
// rules' instances, the moved and removed blocks, the scope; and refuses
// what cannot be planned at all. It returns the projects to plan, and false
// when the diagnostics hold an error that stops the plan here.
func (pl *planner) start(cfg *config.Config, live *Live, scope Scope) ([]*config.Project, bool) {
	if !pl.checkRuleTargets(cfg, live, scope) {
		return nil, false
	}
	cfg, ruleDiags := expandRules(cfg, live) // the branch rules' instances (rules.go)
	pl.cfg, pl.diags = cfg, append(pl.diags, ruleDiags...)
	for _, p := range cfg.Projects {
		for _, b := range p.Branches {
			for _, c := range b.Computes {
				pl.inConfig[c.Address] = c
			}
		}
	}
	pl.eff = pl.applyMoves()
	pl.startRemovals()
	pl.byProject = entriesByProject(pl.eff)
	projects := ProjectsToRead(cfg, pl.st, scope)
	if !pl.startScope(scope) {
		return nil, false
	}
	if !pl.scope.destroy {
		pl.checkUnreadProjects(projects, pl.coveredOnly(pl.byProject))
		pl.checkReplaced()
	}
	return projects, true
}

// entriesByProject groups the state entries by project id, in no order.
// Each project's list is sized at once from a first count: 250,000
// entries of one project grown a quarter at a time were 11 MB for 2.
func entriesByProject(eff map[string]*stateEntry) map[string][]*stateEntry {
	sizes := map[string]int{}
	for _, e := range eff {
		sizes[e.c.ProjectID]++
	}
	byProject := make(map[string][]*stateEntry, len(sizes))
	for _, e := range eff {
		list := byProject[e.c.ProjectID]
		if list == nil {
			list = make([]*stateEntry, 0, sizes[e.c.ProjectID])
		}
		byProject[e.c.ProjectID] = append(list, e)
	}
	return byProject
}

// planProjects plans each project into plan, and returns the branches'
// labels for derive. It stops with ctx's error at an interrupt, between
// projects and within one (planner.look). targeted: the plan has -target.
func (pl *planner) planProjects(ctx context.Context, plan *Plan, projects []*config.Project, live *Live, targeted bool) (branchNames, error) {
	names := branchNames{}
	entries := pl.st.EntryDigests(projectIDs(projects))
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lp := live.Projects[p.ID]
		if lp == nil {
			rng := p.DeclRange
			pl.errorf(&rng, "Project not read", "The live endpoints of project %q (id %q) were not read, so it cannot be planned. This is a bug in neonform.", p.Label, p.ID)
			continue
		}
		if !slices.IsSortedFunc(lp.Endpoints, byID) { // a caller's own LiveProject
			lp.Endpoints = slices.SortedFunc(slices.Values(lp.Endpoints), byID)
		}
		pp, err := pl.planProject(p, lp)
		if err != nil {
			return nil, err
		}
		if !pl.scope.destroy {
			names[p.ID] = pp.branchNames()
		}
		plan.Projects = append(plan.Projects, Project{ID: p.ID, Label: p.Label, LiveDigest: digestOf(lp.Endpoints), Endpoints: lp.Endpoints, Defaults: lp.Defaults,
			StateEntries: nilIfEmpty(entries[p.ID])})
		if dc := planDefaults(p, lp); dc != nil && !pl.scope.destroy && !targeted {
			plan.Defaults = append(plan.Defaults, *dc)
		}
		for _, c := range pp.changes {
			plan.Changes = append(plan.Changes, *c)
		}
		plan.Unmanaged = append(plan.Unmanaged, pp.unmanaged...)
		plan.Forget = append(plan.Forget, pp.forget...)
	}
	slices.Sort(plan.Forget)
	return names, nil
}

// planProject plans one project: its changes, its unmanaged endpoints and
// the state addresses it forgets, in the projectPlan returned.
func (pl *planner) planProject(p *config.Project, lp *LiveProject) (*projectPlan, error) {
	if pl.scope.destroy {
		pp := &projectPlan{pl: pl, p: p, lp: lp}
		pp.changes, pp.unmanaged = pl.planDestroy(p, lp)
		return pp, pl.look.err
	}
	pp := pl.newProjectPlan(p, lp, pl.eff, pl.byProject[p.ID])
	return pp, pp.plan()
}

// finish makes of the planned changes the whole plan: their costs and the
// budget, then (the configuration let go) the drift, the steps and their
// order and the summary, derived as apply derives them; the renames, the
// drift's sensitive values hidden, the warnings.
func (pl *planner) finish(ctx context.Context, plan *Plan, names branchNames) (*Plan, hcl.Diagnostics, error) {
	if pl.diags.HasErrors() {
		return nil, pl.diags, nil
	}
	// The cost needs the configuration's price, hints and budgets: made
	// before it is let go, and a plan over a budget is no plan.
	rest := pl.outsideCost(plan, pl.eff, pl.cfg.Settings.Price())
	if pl.diags = append(pl.diags, addCosts(plan, pl.cfg, pl.inConfig, rest)...); pl.diags.HasErrors() {
		return nil, pl.diags, nil
	}
	pl.letGo()
	slices.SortFunc(plan.Changes, func(a, b Change) int { return strings.Compare(a.Address, b.Address) })
	// Everything else (drift, the steps and their order, the summary)
	// follows from the changes, the live endpoints and the state: derived by
	// the same code that apply runs to check a saved plan.
	problems, err := deriveContext(ctx, plan, pl.st, names)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err != nil {
		pl.errorf(nil, "Inconsistent plan", "The plan contradicts itself (%v). This is a bug in neonform.", err)
		return nil, pl.diags, nil
	}
	for _, pr := range problems {
		pl.errorf(pl.subjectOf(pr.Address), pr.Summary, "%s", pr.Detail)
	}
	if pl.diags.HasErrors() {
		return nil, pl.diags, nil
	}
	nameRenames(plan, pl.st, pl.removals)
	markDrift(plan, pl.st)
	plan.Warnings, plan.Suggestions = pl.warnings, pl.suggestions
	Normalize(plan)
	return plan, pl.diags, nil
}

// markDrift hides the drift of the values that come from sensitive
// variables, as the change at the same address says (the configuration) or
// as the state records them (what was applied).
func markDrift(plan *Plan, st *state.State) {
	if len(plan.Drift) == 0 {
		return
	}
	byAddress := map[string]Secrets{}
	for i := range plan.Changes {
		if ch := &plan.Changes[i]; len(ch.Sensitive) > 0 {
			byAddress[ch.Address] = ch.Secrets()
		}
	}
	for i := range plan.Drift {
		d := &plan.Drift[i]
		// Drift is a change to what was applied: the variables the state
		// records it came from name it first.
		MarkSensitive(d.Attributes, SecretsOf(st.Computes[d.Address]))
		MarkSensitive(d.Attributes, byAddress[d.Address])
	}
}

// subjectOf points a problem of a compute's steps at the moved block that
// brings it where it is, or at its compute block.
func (pl *planner) subjectOf(address string) *hcl.Range {
	c, ok := pl.declared[address]
	if !ok {
		return nil
	}
	for _, m := range pl.moves {
		if m.To == address {
			if _, inState := pl.st.Computes[address]; !inState {
				r := m.DeclRange
				return &r
			}
		}
	}
	return &c.rng
}

// letGo keeps what deriving the steps may need of the configuration, and
// lets the rest go: with 100,000 computes it is a third of what a plan
// holds while the steps are derived, and the garbage collector, held to a
// soft memory limit, works the less the less is live (docs/PERFORMANCE.md).
func (pl *planner) letGo() {
	pl.moves = pl.cfg.Moves
	pl.declared = make(map[string]declared, len(pl.inConfig))
	for addr, c := range pl.inConfig {
		pl.declared[addr] = declared{rng: c.DeclRange}
	}
	pl.cfg, pl.inConfig = nil, nil
}

// stateRef is the state a plan is made against. A state never written (serial
// 0) has a lineage drawn afresh at every read, so the plan records none: the
// plan file then depends only on its inputs, and apply accepts it as long as
// the state is still unwritten.
func stateRef(st *state.State) StateRef {
	if st.Serial == 0 {
		return StateRef{}
	}
	return StateRef{Lineage: st.Lineage, Serial: st.Serial}
}

// checkUnreadProjects refuses state entries in projects no project block
// names: their endpoints were not read, so they can be neither kept nor deleted safely.
func (pl *planner) checkUnreadProjects(projects []*config.Project, byProject map[string][]*stateEntry) {
	read := map[string]bool{}
	for _, p := range projects {
		read[p.ID] = true
	}
	ids := make([]string, 0, len(byProject))
	for id := range byProject {
		if !read[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		var addrs []string
		for _, e := range byProject[id] {
			addrs = append(addrs, e.origin)
		}
		slices.Sort(addrs)
		rm := suggest.Run("state", "rm", "ADDRESS")
		pl.refuse(nil, "State has computes of a project that is not configured",
			fmt.Sprintf("The state manages %s in project %s, but no project block has id %q, so neonform does not read that project and cannot plan the deletion. "+
				"To delete them, keep a project block with that id (and no computes) for one more apply. "+
				"To stop managing them and leave them running: %s for each.",
				strings.Join(addrs, ", "), id, id, rm.Quoted()), rm)
	}
}

func (pl *planner) newProjectPlan(p *config.Project, lp *LiveProject, eff map[string]*stateEntry, entries []*stateEntry) *projectPlan {
	pp := &projectPlan{
		pl: pl, p: p, lp: lp,
		live:       make(map[string]*LiveEndpoint, len(lp.Endpoints)),
		onBranch:   map[string][]*LiveEndpoint{},
		branchOf:   map[string]*config.Branch{},
		branchID:   map[*config.Branch]string{},
		claimed:    make(map[string]string, len(entries)), // one for each: sized at once
		taken:      map[string]string{},
		superseded: map[*stateEntry]bool{},
	}
	for i := range lp.Endpoints { // in id order
		ep := &lp.Endpoints[i]
		pp.live[ep.ID] = ep
		pp.onBranch[ep.BranchID] = append(pp.onBranch[ep.BranchID], ep)
	}
	slices.SortFunc(entries, func(a, b *stateEntry) int { return strings.Compare(a.addr, b.addr) })
	pp.entries = entries
	for _, e := range entries {
		pp.claimed[e.c.EndpointID] = e.addr
	}
	pp.resolveBranches()
	for _, b := range p.Branches {
		for _, c := range b.Computes {
			t := &target{c: c, branchID: pp.branchID[b], entry: eff[c.Address]}
			if b.ID == "" {
				t.byName = b.Name
			}
			pp.targets = append(pp.targets, t)
		}
	}
	slices.SortFunc(pp.targets, func(a, b *target) int { return strings.Compare(a.c.Address, b.c.Address) })
	return pp
}

// plan works out the changes and the unmanaged endpoints of one project.
// It stops with ctx's error at an interrupt (planner.look), every
// interruptEvery computes or endpoints it goes through.
func (pp *projectPlan) plan() error {
	if err := pp.identify(); err != nil {
		return err
	}
	for _, t := range pp.targets {
		if err := pp.pl.look.stop(); err != nil {
			return err
		}
		if t.branchID == "" || !pp.pl.scope.covers(t.c.Address) {
			continue // its branch was not found (already an error), or it is not targeted
		}
		pp.planTarget(t)
	}
	if err := pp.planRemovals(); err != nil {
		return err
	}
	return pp.planUnclaimed()
}

// planRemovals deletes the managed endpoints that no configured compute
// keeps: computes the configuration no longer declares, the old endpoints of
// interrupted replacements, and those a compute no longer takes because it
// took back its deposed endpoint. An entry whose endpoint is already gone is
// forgotten (derive.go).
func (pp *projectPlan) planRemovals() error {
	for _, e := range pp.entries {
		if err := pp.pl.look.stop(); err != nil {
			return err
		}
		ep := pp.live[e.c.EndpointID]
		if ep == nil || pp.taken[ep.ID] != "" || (pp.pl.inConfig[e.addr] != nil && !pp.superseded[e]) || !pp.pl.scope.covers(e.addr) {
			continue
		}
		addr, why := e.addr, Reason{Kind: ReasonNoLongerConfigured, EndpointID: ep.ID}
		removal := pp.pl.removals[e.addr]
		if removal != nil && !e.deposed && !pp.superseded[e] {
			if !removal.Destroy {
				pp.forgetRemoved(e, removal)
				continue
			}
			why = Reason{Kind: ReasonRemovedBlock, EndpointID: ep.ID}
		}
		rm := suggest.Run("state", "rm", e.origin)
		var suggested []suggest.Command // what refusal suggests
		refusal := fmt.Sprintf("%s (%s) is no longer in the configuration, but the state records lifecycle.prevent_destroy = true for it, so the plan will not delete it. "+
			"To delete it: put its compute block back with prevent_destroy = false, apply, then remove the block. "+
			"To stop managing it and leave it running: %s.", e.addr, ep.ID, rm.Quoted())
		suggested = append(suggested, rm)
		if moved := pp.relabelled(e); moved != "" {
			// A project block given another label: the moved block keeps
			// everything, where deleting or forgetting loses the compute.
			refusal = fmt.Sprintf("%s (%s) is no longer in the configuration, but the state records lifecycle.prevent_destroy = true for it, so the plan will not delete it. "+
				"If the project block was renamed, say so with this block, which keeps every compute and endpoint as it is:\n\n%s\n\n"+
				"To stop managing it and leave it running instead: %s.", e.addr, ep.ID, moved, rm.Quoted())
		}
		protected := e.c.PreventDestroy
		switch c := pp.pl.inConfig[e.base]; {
		case pp.superseded[e]:
			addr = state.DeposedAddress(e.addr, ep.ID)
			protected = pp.pl.inConfig[e.addr].PreventDestroy
			why = Reason{Kind: ReasonReplacementSuperseded, EndpointID: ep.ID, Address: e.addr}
			suggested = nil
			refusal = fmt.Sprintf("%s takes back its endpoint from before an interrupted replacement, so %s, which that replacement made, would be deleted; "+
				"but %s has lifecycle.prevent_destroy = true, so the plan will not. Set prevent_destroy = false to allow it, "+
				"or configure %s as the replacement made it (a %s).", e.addr, ep.ID, e.addr, e.addr, ep.Type)
		case e.deposed && c != nil:
			protected = c.PreventDestroy // the configuration decides whether the replacement goes on
			why = Reason{Kind: ReasonInterruptedReplace, EndpointID: ep.ID, Address: e.base}
			suggested = nil
			refusal = fmt.Sprintf("The replacement of %s was interrupted before it deleted %s, the endpoint it replaces, and %s has lifecycle.prevent_destroy = true now, so the plan will not delete it. "+
				"To finish the replacement, set prevent_destroy = false. To keep the old endpoint instead, describe it again in the compute block (a %s): the next plan takes it back.",
				e.base, ep.ID, e.base, ep.Type)
		case e.deposed:
			why = Reason{Kind: ReasonInterruptedReplaceUnconfigured, EndpointID: ep.ID, Address: e.base}
		}
		if protected {
			pp.pl.refuse(pp.blockOf(e.c.BranchID), "Compute cannot be deleted", refusal, suggested...)
			continue
		}
		ch := pp.newChange(addr, Delete, ep)
		ch.Disruption = Remove
		ch.Sensitive, ch.SensitiveFrom = slices.Clone(e.c.Sensitive), state.CloneSensitiveFrom(e.c.SensitiveFrom)
		ch.Reasons = append(ch.Reasons, why)
	}
	return nil
}

// relabelled is the moved block for a state entry whose project label the
// configuration no longer has, while this project block (the same project
// id) has another: a project block renamed. "" otherwise.
func (pp *projectPlan) relabelled(e *stateEntry) string {
	if e.deposed {
		return "" // an interrupted replacement's old endpoint: not the compute
	}
	label, _, _, err := config.ParseAddress(e.origin)
	if err != nil || label == pp.p.Label || slices.ContainsFunc(pp.pl.cfg.Projects, func(p *config.Project) bool { return p.Label == label }) {
		return ""
	}
	return config.MovedBlock(label, pp.p.Label)
}

// planUnclaimed deals with the live endpoints nothing claims: deleted on an
// exclusive branch, listed as unmanaged otherwise.
func (pp *projectPlan) planUnclaimed() error {
	for _, ep := range pp.sortedLive() {
		if err := pp.pl.look.stop(); err != nil {
			return err
		}
		if pp.taken[ep.ID] != "" {
			continue
		}
		if _, claimed := pp.claimed[ep.ID]; claimed {
			continue
		}
		b := pp.branchOf[ep.BranchID]
		if b != nil && b.Exclusive && pp.pl.scope.partial() {
			continue // not a compute any target names: left for a whole plan
		}
		if b != nil && b.Exclusive {
			addr := fmt.Sprintf("%s.%s[%s]", pp.p.Label, b.Label, ep.ID)
			ch := pp.newChange(addr, Delete, ep)
			ch.Disruption = Remove
			ch.Reasons = append(ch.Reasons, Reason{Kind: ReasonExclusiveBranch, EndpointID: ep.ID, Type: ep.Type, Name: ep.Name,
				Branch: &Branch{ID: ep.BranchID, Label: branchLabel(pp.p.Label, b.Label)}})
			continue
		}
		u := Unmanaged{ProjectID: pp.p.ID, ProjectLabel: pp.p.Label, BranchID: ep.BranchID, EndpointID: ep.ID, Name: ep.Name, Type: ep.Type}
		if b != nil {
			u.BranchLabel = b.Label
		}
		pp.unmanaged = append(pp.unmanaged, u)
	}
	return nil
}

// blockOf points at the branch block of a branch, or at the project block
// when no branch block names it: where a compute no longer declared was.
func (pp *projectPlan) blockOf(branchID string) *hcl.Range {
	if b := pp.branchOf[branchID]; b != nil {
		r := b.DeclRange
		return &r
	}
	r := pp.p.DeclRange
	return &r
}

// sortedLive is the project's live endpoints, in id order.
func (pp *projectPlan) sortedLive() []*LiveEndpoint {
	out := make([]*LiveEndpoint, len(pp.lp.Endpoints))
	for i := range pp.lp.Endpoints {
		out[i] = &pp.lp.Endpoints[i]
	}
	return out
}

// newChange starts a change of an existing endpoint (ep may be nil for a create).
func (pp *projectPlan) newChange(addr string, a Action, ep *LiveEndpoint) *Change {
	ch := &Change{Address: addr, Action: a, ProjectID: pp.p.ID, Attributes: []Attribute{}, Reasons: []Reason{}}
	if ep != nil {
		ch.EndpointID, ch.BranchID, ch.Type, ch.Active = ep.ID, ep.BranchID, ep.Type, isActive(ep)
	}
	pp.changes = append(pp.changes, ch)
	return ch
}

func isActive(ep *LiveEndpoint) bool { return Active(ep.CurrentState) }

// Active: a compute that is running or starting (init becomes active) has,
// or is about to have, connections to drop; only idle is safe.
func Active(st api.EndpointState) bool { return st != api.EndpointStateIdle }

// KindWords is what a plan calls an endpoint of type t, in its reasons and
// views: "read replica" or "read_write compute".
func KindWords(t api.EndpointType) string {
	if t == api.EndpointTypeReadOnly {
		return "read replica"
	}
	return "read_write compute"
}

// branchNames gives derive each branch of the project as the configuration
// labels it ("shop.main"), "" for one no branch block names, without the
// project's planning, nor its configuration: derive names branches after
// both are let go.
func (pp *projectPlan) branchNames() func(id string) string {
	project, labels := pp.p.Label, make(map[string]string, len(pp.branchOf))
	for id, b := range pp.branchOf {
		labels[id] = b.Label
	}
	return func(id string) string {
		if label, ok := labels[id]; ok {
			return branchLabel(project, label)
		}
		return ""
	}
}

// branchLabel is a branch as the configuration labels it: "shop.main".
func branchLabel(projectLabel, branchLabel string) string {
	return projectLabel + "." + branchLabel
}

// projectIDs is the set of the ids of projects.
func projectIDs(projects []*config.Project) map[string]bool {
	out := make(map[string]bool, len(projects))
	for _, p := range projects {
		out[p.ID] = true
	}
	return out
}

// nilIfEmpty is m, or nil when it has nothing: a project without state
// entries records none.
func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}
