package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

// Scope is what the flags of plan and apply ask of a plan besides the
// configuration: to plan only some computes (-target), to recreate some
// (-replace), or to delete every managed compute (-destroy). The plan records
// it (Plan.Targets, Plan.Replace, Plan.Destroy), and derive checks that its
// changes keep to it, so that a saved plan means what it says.
type Scope struct {
	// Targets are addresses of projects, branches or computes (1 to 3
	// parts); none means every compute. A part without a key covers every
	// instance of its block: shop.main.reports covers shop.main.reports["eu"].
	Targets []string
	// Replace are compute addresses to plan as replacements even when
	// nothing in them changed.
	Replace []string
	// Destroy deletes every compute the state manages.
	Destroy bool
}

// planScope is a Scope parsed, as a plan records it.
type planScope struct {
	targets [][]string
	replace map[string]bool
	destroy bool
}

// scopeOf parses the scope a plan records; an address that does not parse
// is an error (a plan file edited by hand).
func scopeOf(p *Plan) (*planScope, error) {
	sc := &planScope{replace: map[string]bool{}, destroy: p.Destroy}
	for _, t := range p.Targets {
		parts, err := config.ParsePartialAddress(t)
		if err != nil {
			return nil, fmt.Errorf("target: %w", err)
		}
		sc.targets = append(sc.targets, parts)
	}
	for _, r := range p.Replace {
		if _, _, _, err := config.ParseAddress(r); err != nil {
			return nil, fmt.Errorf("replace: %w", err)
		}
		sc.replace[r] = true
	}
	for _, f := range p.Forget {
		if _, _, _, err := config.ParseAddress(f); err != nil {
			return nil, fmt.Errorf("forget: %w", err)
		}
		if !sc.covers(f) {
			return nil, fmt.Errorf("it forgets %s, which is outside its targets (%s)", f, strings.Join(p.Targets, ", "))
		}
	}
	if sc.destroy && (len(sc.replace) > 0 || len(p.Forget) > 0) {
		return nil, fmt.Errorf("a destroy plan deletes every managed compute its targets cover: it has no replacements and forgets none")
	}
	return sc, nil
}

// record writes the scope into a plan, each list sorted and each address once.
func (s Scope) record(p *Plan) {
	clean := func(list []string) []string {
		out := slices.Clone(list)
		slices.Sort(out)
		return slices.Compact(out)
	}
	p.Targets, p.Replace, p.Destroy = clean(s.Targets), clean(s.Replace), s.Destroy
}

// partial reports whether only some computes are planned.
func (sc *planScope) partial() bool { return len(sc.targets) > 0 }

// covers reports whether the compute at a state or configured address is
// planned: every compute without targets; a deposed entry goes with its
// compute. An address of no compute (an endpoint an exclusive branch would
// delete) is covered only by a whole plan.
func (sc *planScope) covers(addr string) bool {
	if !sc.partial() {
		return true
	}
	if base, _, ok := state.Deposed(addr); ok {
		addr = base
	}
	p, b, c, err := config.ParseAddress(addr)
	if err != nil {
		return false
	}
	for _, t := range sc.targets {
		if partsCover(t, []string{p, b, c}) {
			return true
		}
	}
	return false
}

// reads reports whether the project with this label is read: some target
// is in it.
func (sc *planScope) reads(label string) bool {
	if !sc.partial() {
		return true
	}
	for _, t := range sc.targets {
		if partCovers(t[0], label) {
			return true
		}
	}
	return false
}

// Covers reports whether target (a project, branch or compute address)
// covers address (a project, a branch or a compute, or a deposed entry of
// one): it names address or something address is in. Parts without a key
// cover every instance. False when either does not parse.
func Covers(target, address string) bool {
	if base, _, ok := state.Deposed(address); ok {
		address = base
	}
	t, err := config.ParsePartialAddress(target)
	if err != nil {
		return false
	}
	a, err := config.ParsePartialAddress(address)
	return err == nil && partsCover(t, a)
}

// partsCover: target's parts each cover the address's part at the same
// place, and the address is at least as deep.
func partsCover(target, address []string) bool {
	if len(target) > len(address) {
		return false
	}
	for i := range target {
		if !partCovers(target[i], address[i]) {
			return false
		}
	}
	return true
}

// partCovers: a part with a key names that instance; a part without one, its
// block's every instance.
func partCovers(target, part string) bool {
	if target == part {
		return true
	}
	tl, _, keyed := config.SplitInstance(target)
	l, _, _ := config.SplitInstance(part)
	return !keyed && tl == l
}

// ProjectsToRead is the projects a plan reads, sorted by id: those a target is
// in; for a destroy, the projects of the state's computes (a project no
// block names any more is still read, by its id, to delete them) that a
// target is in.
func ProjectsToRead(cfg *config.Config, st *state.State, s Scope) []*config.Project {
	configured := uniqueProjects(cfg)
	if s.Destroy {
		configured = stateProjects(configured, st)
	}
	sc, err := scopeOf(&Plan{Targets: s.Targets})
	if err != nil || !sc.partial() {
		return configured // a bad target is refused by Build
	}
	var out []*config.Project
	for _, p := range configured {
		if sc.reads(p.Label) {
			out = append(out, p)
		}
	}
	return out
}

// stateProjects is the project of every state entry, sorted by id, with no
// branch blocks (a destroy needs none, so only its endpoints are read, and
// its branches only for its branch rules), labelled as its block is when one
// has its id, or else as its addresses are.
func stateProjects(configured []*config.Project, st *state.State) []*config.Project {
	byID := map[string]*config.Project{}
	for _, p := range configured {
		byID[p.ID] = p
	}
	if st == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []*config.Project
	for _, addr := range st.Addresses() {
		c := st.Computes[addr]
		if c == nil || seen[c.ProjectID] {
			continue
		}
		seen[c.ProjectID] = true
		p := &config.Project{ID: c.ProjectID, Label: c.ProjectID}
		if parts, err := config.ParsePartialAddress(baseOf(addr)); err == nil {
			p.Label = parts[0]
		}
		if block := byID[c.ProjectID]; block != nil {
			// Its branch rules too: their instances' lifecycle blocks say
			// which computes refuse the destroy, and the rules need the
			// project's branches listed.
			p.Label, p.DeclRange, p.Rules = block.Label, block.DeclRange, block.Rules
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *config.Project) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// baseOf is the compute address of a state address: a deposed entry's compute.
func baseOf(addr string) string {
	if base, _, ok := state.Deposed(addr); ok {
		return base
	}
	return addr
}

// check refuses a plan whose changes do not keep to its scope: in a partial
// plan, a project no target is in, or a change of a compute no target
// covers; a compute asked to be replaced that is not; in a destroy plan,
// anything but the deletes of managed endpoints, and (with the state) a
// managed compute left standing. holders maps an endpoint id to the state
// address that manages it; withState: st is the state the plan was made
// against.
func (sc *planScope) check(p *Plan, st *state.State, holders map[string]string, withState bool) error {
	if sc.partial() {
		for _, proj := range p.Projects {
			if !sc.reads(proj.Label) {
				return fmt.Errorf("the plan reads project %s (%s), but none of its targets (%s) is in it", proj.Label, proj.ID, strings.Join(p.Targets, ", "))
			}
		}
		for _, ch := range p.Changes {
			if !sc.covers(ch.Address) {
				return fmt.Errorf("change %s is outside the plan's targets (%s)", ch.Address, strings.Join(p.Targets, ", "))
			}
		}
	}
	byAddress := make(map[string]*Change, len(p.Changes))
	for i := range p.Changes {
		byAddress[p.Changes[i].Address] = &p.Changes[i]
	}
	for _, addr := range p.Replace {
		if ch := byAddress[addr]; ch == nil || (ch.Action != Replace && ch.Action != Create) {
			return fmt.Errorf("%s was asked to be replaced (-replace), but the plan does not replace it", addr)
		}
	}
	if !sc.destroy {
		return sc.checkWhole(p, st, withState)
	}
	deleted := map[string]bool{}
	for _, ch := range p.Changes {
		if ch.Action != Delete {
			return fmt.Errorf("a destroy plan only deletes, but its change %s is a %v", ch.Address, ch.Action)
		}
		if withState && holders[ch.EndpointID] == "" {
			return fmt.Errorf("a destroy plan deletes only the endpoints the state manages, but its change %s deletes %s, which the state does not", ch.Address, ch.EndpointID)
		}
		deleted[ch.EndpointID] = true
	}
	if !withState {
		return nil
	}
	planned := recordedEndpoints(p)
	for _, addr := range st.Addresses() {
		c := st.Computes[addr]
		if c == nil || !sc.covers(addr) {
			continue
		}
		live, read := planned[c.ProjectID]
		switch {
		case !read:
			return fmt.Errorf("the state manages %s in project %s, which the destroy plan does not read", addr, c.ProjectID)
		case live[c.EndpointID] && !deleted[c.EndpointID]:
			return fmt.Errorf("the state manages %s (%s), which the destroy plan does not delete", addr, c.EndpointID)
		}
	}
	return nil
}

// checkWhole refuses a plan that says it is whole (no targets) but leaves
// a managed endpoint of a project it read without a change saying what
// becomes of it: a whole plan has one for every managed compute (a no-op at
// least), so this is a partial plan whose targets were taken out of the file.
func (sc *planScope) checkWhole(p *Plan, st *state.State, withState bool) error {
	if sc.partial() || !withState {
		return nil
	}
	acted := make(map[string]bool, len(p.Changes))
	for _, ch := range p.Changes {
		acted[ch.EndpointID] = true
	}
	for _, addr := range p.Forget {
		if c := st.Computes[addr]; c != nil {
			acted[c.EndpointID] = true // forgotten by a removed block
		}
	}
	live := recordedEndpoints(p)
	// The first such address in order, without sorting 100,000 of them.
	first := ""
	for addr, c := range st.Computes {
		if c != nil && live[c.ProjectID][c.EndpointID] && !acted[c.EndpointID] && (first == "" || addr < first) {
			first = addr
		}
	}
	if first != "" {
		return fmt.Errorf("the state manages %s (%s), but the plan, which has no targets, says nothing of it: a whole plan has a change for every managed compute of the projects it reads", first, st.Computes[first].EndpointID)
	}
	return nil
}

// recordedEndpoints is, by project id, the ids of the live endpoints the
// plan recorded: a planned project has an entry, even without endpoints.
func recordedEndpoints(p *Plan) map[string]map[string]bool {
	out := make(map[string]map[string]bool, len(p.Projects))
	for _, proj := range p.Projects {
		out[proj.ID] = make(map[string]bool, len(proj.Endpoints))
		for _, ep := range proj.Endpoints {
			out[proj.ID][ep.ID] = true
		}
	}
	return out
}

// startScope parses the scope the plan is asked for; a bad address is an
// error of the plan (the CLI checks them first, naming the flag).
func (pl *planner) startScope(s Scope) bool {
	sc, err := scopeOf(&Plan{Targets: s.Targets, Replace: s.Replace, Destroy: s.Destroy})
	if err != nil {
		pl.errorf(nil, "Bad address", "%v", err)
		return false
	}
	pl.scope = sc
	return true
}

// checkReplaced refuses a -replace of an address no compute has once the
// branch rules are applied: the CLI checks the others before any call, and
// CheckRuleTargets a rule's instance, with the live branches; this holds
// for any caller of Build.
func (pl *planner) checkReplaced() {
	for _, addr := range slices.Sorted(maps.Keys(pl.scope.replace)) {
		if pl.inConfig[addr] == nil {
			pl.errorf(nil, "No compute to replace",
				"-replace %s: no compute has this address; a branch rule has an instance only for a live branch it matches. Check the branch's name, or drop -replace %s.", addr, addr)
		}
	}
}

// coveredOnly is the state entries of each project that the plan covers.
func (pl *planner) coveredOnly(byProject map[string][]*stateEntry) map[string][]*stateEntry {
	if !pl.scope.partial() {
		return byProject
	}
	out := map[string][]*stateEntry{}
	for id, entries := range byProject {
		for _, e := range entries {
			if pl.scope.covers(e.addr) {
				out[id] = append(out[id], e)
			}
		}
	}
	return out
}

// uniqueProjects returns the configured projects sorted by id, each id once.
// (The config forbids two blocks with one id; this only keeps fetch.Live safe.)
func uniqueProjects(cfg *config.Config) []*config.Project {
	seen := map[string]bool{}
	var out []*config.Project
	for _, p := range cfg.Projects {
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *config.Project) int { return strings.Compare(a.ID, b.ID) })
	return out
}
