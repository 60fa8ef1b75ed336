package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/nearest"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// stateEntry is a state entry as the plan sees it: after moved blocks, it may
// sit at a new address (addr) while the state file still has it at origin.
type stateEntry struct {
	addr   string
	origin string
	c      *state.Compute
	move   *config.Move // the moved block that took it to addr; nil when addr == origin
	// deposed: a replacement's old endpoint, kept at "<base>[deposed:<id>]"
	// by an apply that stopped between the create and the delete.
	deposed bool
	base    string
}

// applyMoves returns the state entries by address once the moved blocks are
// followed. A move of a project or a branch takes every compute under it
// along; a move of the compute itself comes first. A chain (a -> b, b -> c)
// takes a to c whatever the order of the blocks; it stops at an address the
// configuration declares, since a declared compute is never moved away. An
// entry whose destination is held by another entry stays where it is, with a
// warning; one whose destination is in another service project stays too,
// with an error (config.ProjectMoveRefusal).
func (pl *planner) applyMoves() map[string]*stateEntry {
	next := make(map[string]*config.Move, len(pl.cfg.Moves))
	for _, m := range pl.cfg.Moves {
		if prev, dup := next[m.From]; !dup || m.To < prev.To { // the config refuses duplicates; stay deterministic anyway
			next[m.From] = m
		}
	}
	eff := make(map[string]*stateEntry, len(pl.st.Computes))
	for addr, c := range pl.st.Computes {
		if c != nil {
			e := &stateEntry{addr: addr, origin: addr, c: c}
			e.base, _, e.deposed = state.Deposed(addr)
			eff[addr] = e
		}
	}
	if len(next) == 0 {
		return eff // no moved blocks: nothing to follow, nor to sort
	}
	projectIDs := map[string]string{}
	for _, p := range pl.cfg.Projects {
		projectIDs[p.Label] = p.ID
	}
	held := slices.Sorted(maps.Keys(eff))
	for _, from := range held {
		e := eff[from]
		if e.deposed {
			continue // an interrupted replacement's old endpoint stays where the replacement left it
		}
		to, last := from, (*config.Move)(nil)
		seen := map[string]bool{from: true}
		for pl.inConfig[to] == nil {
			m, moved := moveOf(next, to)
			if m == nil || seen[moved] {
				break
			}
			if _, inState := slices.BinarySearch(held, moved); inState {
				// Both ends were in the state before any move: the chain
				// stops, and the entry stays where it is.
				rmTo, rmMoved := suggest.Run("state", "rm", to), suggest.Run("state", "rm", moved)
				pl.warn(fmt.Sprintf("moved block from %s to %s: both addresses are in the state, so the block is ignored. "+
					"If the move is done, remove the block; otherwise forget the address that is not the compute's, %s or %s.",
					to, moved, rmTo.Quoted(), rmMoved.Quoted()), rmTo, rmMoved)
				last = nil
				break
			}
			to, last = moved, m
			seen[to] = true
		}
		if last == nil {
			continue
		}
		if pl.inConfig[to] == nil {
			pl.undeclaredMove(last, from, to)
			continue
		}
		if why, cmds := config.ProjectMoveRefusal(from, to, e.c.ProjectID, projectIDs[pl.inConfig[to].ProjectLabel]); why != "" {
			r := last.DeclRange
			pl.refuse(&r, "Move across projects", why, cmds...)
			delete(eff, from) // refused: neither kept nor deleted by this plan
			continue
		}
		if _, taken := eff[to]; taken {
			continue // taken: another chain got there first (the config refuses two moves to one address)
		}
		delete(eff, from)
		e.addr, e.move = to, last
		eff[to] = e
	}
	return eff
}

// moveOf is the moved block that takes the compute at addr somewhere, and
// where: a block moving the compute itself, else its branch, else its
// project; nil when none does.
func moveOf(next map[string]*config.Move, addr string) (*config.Move, string) {
	parts, err := config.ParsePartialAddress(addr)
	if err != nil {
		return nil, ""
	}
	for n := len(parts); n >= 1; n-- {
		prefix := strings.Join(parts[:n], ".")
		if m := next[prefix]; m != nil {
			return m, strings.Join(append([]string{m.To}, parts[n:]...), ".")
		}
	}
	return nil, ""
}

// undeclaredMove deals with a state entry that a moved block would take to
// an address no compute has once the branch rules are applied. A move of the
// compute itself goes to a rule's instance (the configuration checked the
// rest): its branch is not there, which is an error, since the endpoint would
// otherwise be deleted. A compute that the move of its branch or project
// takes to where the configuration declares nothing is not moved: it goes
// as a compute no longer declared does.
func (pl *planner) undeclaredMove(m *config.Move, from, to string) {
	if parts, err := config.ParsePartialAddress(m.To); err != nil || len(parts) < 3 {
		return
	}
	project, branch, _, _ := config.ParseAddress(to)
	rule, key, _ := config.SplitInstance(branch)
	r := m.DeclRange
	pl.errorf(&r, "Move to an undeclared compute",
		"The moved block takes %s to %s, but project %s has no live branch named %q, so the branches block %q has no instance there. "+
			"Check the branch's name in the key, or create the branch first; until then, keep %s declared where it is.", from, to, project, key, rule, from)
}

// resolveBranches finds the id of every branch block: pinned, or looked up by
// name in the project's branches.
func (pp *projectPlan) resolveBranches() {
	byName := map[string][]string{}
	known := map[string]bool{}
	for _, b := range pp.lp.Branches {
		byName[b.Name] = append(byName[b.Name], b.ID)
		known[b.ID] = true
	}
	for _, b := range pp.p.Branches {
		id := b.ID
		switch {
		case id != "" && pp.lp.Branches != nil && !known[id]:
			pp.errorf(&b.DeclRange, "Branch not found",
				"Project %q (id %q) has no branch with id %q. The branch must exist first: neonform manages computes, not branches. Check the id, or find the branch by name with name = \"...\".",
				pp.p.Label, pp.p.ID, id)
			continue
		case id == "" && pp.lp.Branches == nil && pp.lp.Known[b.Label] != "":
			id = pp.lp.Known[b.Label] // as the state records it: not listed (diff/fetch/branches.go)
		case id == "" && pp.lp.Branches == nil:
			pp.errorf(&b.DeclRange, "Branches not read",
				"Branch block %s.%s is found by name, but the branches of project %s were not read. This is a bug in neonform; pin the branch with id = \"br-...\" meanwhile.", pp.p.Label, b.Label, pp.p.Label)
			continue
		case id == "":
			ids := byName[b.Name]
			if len(ids) == 0 {
				missing := fmt.Sprintf("Project %s (id %s) has no branch named %q.", pp.p.Label, pp.p.ID, b.Name)
				pp.pl.refuseNear(nameRange(b), "Branch not found",
					missing+" The branch must exist first: neonform manages computes, not branches. Fix the name (the name attribute, or the block's label when it has none), create the branch (in the console or with the API), or pin an existing branch with id = \"br-...\".",
					diag.Near{Names: nearestBranches(b.Name, pp.lp.Branches), Strings: true, At: len(missing)})
				continue
			}
			if len(ids) > 1 {
				pp.errorf(&b.DeclRange, "Branch name is ambiguous",
					"Project %s has %d branches named %q (%s). Pin the one you mean with id = \"...\".", pp.p.Label, len(ids), b.Name, strings.Join(ids, ", "))
				continue
			}
			id = ids[0]
		}
		if other, dup := pp.branchOf[id]; dup {
			pp.errorf(&b.DeclRange, "Two branch blocks for one branch",
				"Branch blocks %s.%s and %s.%s both stand for branch %s. Declare each branch once; merge their computes into one block.",
				pp.p.Label, other.Label, pp.p.Label, b.Label, id)
			continue
		}
		pp.branchOf[id] = b
		pp.branchID[b] = id
	}
}

// identify finds the live endpoint of each configured compute, in the order
// docs/architecture.md gives (Identity): the state's endpoint id if it still exists, then
// (adoption) the branch's read_write, or a read replica with the same name.
// An endpoint that state assigns to one address is never taken by another.
func (pp *projectPlan) identify() error {
	for _, t := range pp.targets {
		if err := pp.pl.look.stop(); err != nil {
			return err
		}
		e := t.entry
		if e == nil {
			continue
		}
		if e.c.ProjectID != pp.p.ID {
			rm := suggest.Run("state", "rm", e.origin)
			pp.pl.refuse(&t.c.DeclRange, "Compute cannot change project",
				fmt.Sprintf("%s is recorded in state in project %s, but configured in project %q (id %s). An endpoint cannot move between projects. "+
					"To start afresh here, forget the old one with %s (it keeps running), or give this compute a new label.",
					t.c.Address, e.c.ProjectID, pp.p.Label, pp.p.ID, rm.Quoted()), rm)
			continue
		}
		if ep := pp.live[e.c.EndpointID]; ep != nil {
			t.ep = ep
			pp.taken[ep.ID] = t.c.Address
		}
	}
	pp.takeBackDeposed()
	for _, t := range pp.targets {
		if err := pp.pl.look.stop(); err != nil {
			return err
		}
		if t.ep != nil || t.branchID == "" {
			continue
		}
		// adoptable goes through the branch's endpoints, and looks as it goes.
		if ep := pp.adoptable(t); ep != nil {
			t.ep, t.adopt = ep, true
			pp.taken[ep.ID] = t.c.Address
		}
	}
	return pp.pl.look.err
}

// takeBackDeposed gives a compute back the endpoint that an interrupted
// replacement left deposed, when that endpoint is what the configuration
// describes again (its type, the one thing an update cannot change) and the
// compute's own endpoint is gone or is not: reverting the configuration
// undoes the replacement, with nothing created. The endpoint the compute
// held instead (made by the replacement) is then superseded, and deleted.
func (pp *projectPlan) takeBackDeposed() {
	deposed := map[string][]*stateEntry{}
	for _, e := range pp.entries {
		if e.deposed && e.addr == e.origin {
			deposed[e.base] = append(deposed[e.base], e)
		}
	}
	if len(deposed) == 0 {
		return
	}
	for _, t := range pp.targets {
		want := apiType(t.c.Type)
		if t.branchID == "" || (t.ep != nil && t.ep.Type == want) {
			continue
		}
		for _, d := range deposed[t.c.Address] {
			ep := pp.live[d.c.EndpointID]
			if ep == nil || ep.Type != want || pp.taken[ep.ID] != "" {
				continue
			}
			if t.ep != nil {
				delete(pp.taken, t.ep.ID)
				pp.superseded[t.entry] = true
			}
			t.entry, t.ep = d, ep
			pp.taken[ep.ID] = t.c.Address
			break
		}
	}
}

// adoptable returns the live endpoint that a compute not (or no longer) in
// state takes over, or nil.
func (pp *projectPlan) adoptable(t *target) *LiveEndpoint {
	var found []*LiveEndpoint
	for _, ep := range pp.onBranch[t.branchID] {
		if pp.pl.look.stop() != nil {
			return nil // interrupted: identify returns the error
		}
		if _, claimed := pp.claimed[ep.ID]; claimed || pp.taken[ep.ID] != "" {
			continue
		}
		switch {
		case t.c.Type == config.ReadWrite && ep.Type == api.EndpointTypeReadWrite:
			return ep // a branch has at most one
		case t.c.Type == config.ReadOnly && ep.Type == api.EndpointTypeReadOnly && ep.Name == t.c.Name:
			found = append(found, ep)
		}
	}
	if len(found) > 1 {
		ids := make([]string, len(found))
		for i, ep := range found {
			ids[i] = ep.ID
		}
		imp := suggest.Run("import", t.c.Address, "ENDPOINT_ID")
		pp.pl.warn(fmt.Sprintf("%s: %d read replicas on its branch are named %s (%s); adopting %s. Import the one you mean with %s to choose.",
			t.c.Address, len(found), QuotedName(t.c.Name, secretsOf(t.c)), strings.Join(ids, ", "), found[0].ID, imp.Quoted()), imp)
	}
	if len(found) > 0 {
		return found[0]
	}
	return nil
}

func (pp *projectPlan) errorf(subject *hcl.Range, summary, format string, args ...any) {
	pp.pl.errorf(subject, summary, format, args...)
}

func (pp *projectPlan) warnf(format string, args ...any) { pp.pl.warnf(format, args...) }

func (pl *planner) errorf(subject *hcl.Range, summary, format string, args ...any) {
	pl.diags = append(pl.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  subject,
	})
}

func (pl *planner) warnf(format string, args ...any) {
	pl.warnings = append(pl.warnings, fmt.Sprintf(format, args...))
}

// refuse is an error of the plan whose detail suggests cmds, each written
// there as its Quoted form.
func (pl *planner) refuse(subject *hcl.Range, summary, detail string, cmds ...suggest.Command) {
	pl.diags = append(pl.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject, Extra: cmds})
}

// refuseNear is an error of the plan about a name that names nothing, with
// the names nearest to it, which a view words in detail (diag.Near).
func (pl *planner) refuseNear(subject *hcl.Range, summary, detail string, near diag.Near) {
	pl.diags = append(pl.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject, Extra: near})
}

// warn is a warning of the plan that suggests cmds, each written in it as
// its Quoted form.
func (pl *planner) warn(text string, cmds ...suggest.Command) {
	pl.warnings = append(pl.warnings, text)
	for _, c := range cmds {
		if !slices.ContainsFunc(pl.suggestions, c.Equal) {
			pl.suggestions = append(pl.suggestions, c)
		}
	}
}

// nameRange is where a branch block's name is written (the name attribute, or the
// label that is the name), for a message about the name; the block when unknown.
func nameRange(b *config.Branch) *hcl.Range {
	if b.NameRange.Filename != "" {
		return &b.NameRange
	}
	return &b.DeclRange
}

// nearestBranches are the names among the project's branches nearest to a
// branch name that names none: a view says "Did you mean" (diag.Near).
func nearestBranches(name string, live []api.Branch) []string {
	names := make([]string, 0, len(live))
	for _, b := range live {
		names = append(names, b.Name)
	}
	return nearest.Names(name, names)
}
