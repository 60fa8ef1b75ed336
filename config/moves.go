package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/diag"
	suggested "github.com/neonform/neonform/internal/suggest"
)

// move is a moved block with the ranges its checks point at.
type move struct {
	*Move
	fromRange, toRange hcl.Range
	depth              int // 1: a project, 2: a branch, 3: a compute
}

// decodeMoves reads the moved blocks and checks them against the declared
// computes: a move goes to a compute (or a branch, or a project) that is
// declared, from one that is not any more, and no two moves share a source
// or a target. A move may change any label, the project's too: whether the
// endpoint stays in its service project is known from the state, and the
// plan checks it (ProjectMoveRefusal).
func (l *loader) decodeMoves(blocks []*hclsyntax.Block) {
	var moves []move
	for _, b := range blocks {
		if m, ok := l.decodeMove(b); ok {
			moves = append(moves, m)
		}
	}
	declared := l.cfg.ComputesByAddress()
	sources := map[string]move{}
	targets := map[string]move{}
	for _, m := range moves {
		ok := true
		if prev, dup := sources[m.From]; dup {
			l.errorf(m.fromRange, "Duplicate move source",
				"%s is already moved to %s at %s; a compute moves to one place only, so remove one of the two moved blocks.", m.From, prev.To, where(prev.DeclRange))
			ok = false
		}
		if prev, dup := targets[m.To]; dup {
			l.errorf(m.toRange, "Duplicate move target",
				"%s already receives %s at %s; only one compute can move there, so remove one of the two moved blocks.", m.To, prev.From, where(prev.DeclRange))
			ok = false
		}
		if !ok {
			continue
		}
		sources[m.From], targets[m.To] = m, m
		l.checkMove(m, declared, moves)
		l.cfg.Moves = append(l.cfg.Moves, m.Move)
	}
}

func (l *loader) decodeMove(b *hclsyntax.Block) (move, bool) {
	m := move{Move: &Move{DeclRange: b.DefRange()}}
	c, diags := bodyContent(b.Body, movedSchema, "a moved block")
	l.diags = append(l.diags, diags...)
	ok := true
	depths := map[string]int{}
	for _, name := range []string{"from", "to"} {
		a := c.Attributes[name]
		if a == nil {
			l.errorf(m.DeclRange, "Missing moved address",
				"A moved block needs from (the old address) and to (the new one), each like \"shop.main.primary\"; %s is missing.", name)
			ok = false
			continue
		}
		s, state := l.moveAddress(a)
		if state != valid {
			ok = false
			continue
		}
		parts, err := ParsePartialAddress(s)
		if err != nil {
			l.errorf(a.Expr.Range(), "Invalid address", "%v.", err)
			ok = false
			continue
		}
		depths[name] = len(parts)
		if name == "from" {
			m.From, m.fromRange = s, a.Expr.Range()
		} else {
			m.To, m.toRange = s, a.Expr.Range()
		}
	}
	if ok && depths["from"] != depths["to"] {
		l.errorf(m.fromRange, "Move to another kind of address",
			"from names %s (%s) and to names %s (%s): a moved block moves a project to a project, a branch to a branch, or a compute to a compute. Write both addresses with as many parts.",
			depthWords[depths["from"]], m.From, depthWords[depths["to"]], m.To)
		ok = false
	}
	if ok && m.From == m.To {
		l.errorf(m.toRange, "Move to the same address",
			"from and to are both %s, so nothing moves; remove this moved block.", m.To)
		ok = false
	}
	m.depth = depths["to"]
	return m, ok
}

// depthWords names what an address of 1, 2 or 3 parts is.
var depthWords = map[int]string{1: "a project", 2: "a branch", 3: "a compute"}

// moveAddress reads from or to: a string, or an address written bare as
// Terraform writes it (shop.main.reports["eu"]).
func (l *loader) moveAddress(a *hclsyntax.Attribute) (string, decoded) {
	if t, diags := hcl.AbsTraversalForExpr(a.Expr); !diags.HasErrors() {
		switch t.RootName() {
		case "var", "local", "each":
			// A value, evaluated below.
		default:
			s, err := addressOfTraversal(t)
			if err != nil {
				l.errorf(a.Expr.Range(), "Invalid address", "%v.", err)
				return "", invalid
			}
			return s, valid
		}
	}
	return l.stringAttr(a, `an address such as shop.main.primary or "shop.main.primary"`)
}

// checkMove checks one move against the configuration; all is every valid move, to
// explain chains.
func (l *loader) checkMove(m move, declared map[string]*Compute, all []move) {
	if l.cfg.declares(m.From, declared) {
		l.errorf(m.fromRange, "Move from a declared "+kindOf(m.depth),
			"%s is still declared, so it cannot also have moved to %s. Remove or rename its block, or remove this moved block.", m.From, m.To)
	}
	if !l.cfg.declares(m.To, declared) {
		what := strings.TrimPrefix(depthWords[m.depth], "a ")
		detail := fmt.Sprintf("No %s is declared at %s, so there is nothing to move %s to.", what, m.To, m.From)
		for _, other := range all {
			if other.From == m.To {
				detail += fmt.Sprintf(" %s itself moves to %s: write one moved block from %s to %s instead of a chain.", m.To, other.To, m.From, other.To)
				break
			}
		}
		var near diag.Near
		if why := l.cfg.unmatchedInstance(m.To); why != "" {
			detail += " " + why
		} else if s := suggest(m.To, l.cfg.addressesOfDepth(m.depth, declared)); s != "" {
			near = nearMiss(len(detail), true, s)
		} else {
			detail += fmt.Sprintf(" Declare the %s there (a branches block declares it for each branch it matches), or fix the address.", what)
		}
		withNear(l.errorf(m.toRange, "Move to an undeclared "+what, "%s", detail), near)
	}
	// When the old project block is still there, its id is known now: a move
	// to a block of another project can be refused before any plan.
	fromProject, toProject := l.cfg.projectAt(m.From), l.cfg.projectAt(m.To)
	if fromProject != nil && toProject != nil {
		if why, cmds := ProjectMoveRefusal(m.From, m.To, fromProject.ID, toProject.ID); why != "" {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Move across projects", Detail: why, Subject: m.toRange.Ptr(), Extra: cmds})
		}
	}
}

func kindOf(depth int) string { return strings.TrimPrefix(depthWords[depth], "a ") }

// declares reports whether the configuration declares the project, branch or
// compute at addr, counting the instances of branch rules: a branch rule
// declares its computes on every branch its match takes, known only at plan
// time, so an instance is declared here when its key is a name the rule
// matches (the plan checks that the branch is there).
func (c *Config) declares(addr string, computes map[string]*Compute) bool {
	parts, err := ParsePartialAddress(addr)
	if err != nil {
		return false
	}
	if len(parts) == 3 && computes[addr] != nil {
		return true
	}
	for _, p := range c.Projects {
		if p.Label != parts[0] {
			continue
		}
		if len(parts) == 1 {
			return true
		}
		for _, b := range p.Branches {
			if b.Label == parts[1] && len(parts) == 2 {
				return true
			}
		}
		label, key, keyed := SplitInstance(parts[1])
		for _, r := range p.Rules {
			if !keyed || r.Label != label || !r.Matches(key) || p.namesBranch(key) {
				continue
			}
			if len(parts) == 2 {
				return true
			}
			for _, cp := range r.Computes {
				if cp.Label == parts[2] {
					return true
				}
			}
		}
	}
	return false
}

// unmatchedInstance says why an address of a branch rule's instance names
// no branch the rule matches, or "" when it is no such address.
func (c *Config) unmatchedInstance(addr string) string {
	parts, err := ParsePartialAddress(addr)
	if err != nil || len(parts) < 2 {
		return ""
	}
	label, key, keyed := SplitInstance(parts[1])
	p := c.projectAt(addr)
	if !keyed || p == nil {
		return ""
	}
	for _, r := range p.Rules {
		if r.Label == label && !r.Matches(key) {
			return fmt.Sprintf("The branches block %q (%s) does not match a branch named %q (match: %s; exclude: %s), so it has no instance there; fix the key, or the rule's match.",
				r.Label, where(r.DeclRange), key, quotedList(r.Match), quotedList(r.Exclude))
		}
	}
	return ""
}

func quotedList(globs []string) string {
	if len(globs) == 0 {
		return "none"
	}
	q := make([]string, len(globs))
	for i, g := range globs {
		q[i] = fmt.Sprintf("%q", g)
	}
	return strings.Join(q, ", ")
}

// namesBranch reports whether a branch block of the project finds its
// branch by this name: no rule matches that branch (diff/rules.go).
func (p *Project) namesBranch(name string) bool {
	for _, b := range p.Branches {
		if b.ID == "" && b.Name == name {
			return true
		}
	}
	return false
}

// projectAt is the project block an address is in, or nil.
func (c *Config) projectAt(addr string) *Project {
	parts, err := ParsePartialAddress(addr)
	if err != nil {
		return nil
	}
	for _, p := range c.Projects {
		if p.Label == parts[0] {
			return p
		}
	}
	return nil
}

// addressesOfDepth lists the declared addresses of projects (1), branches
// (2) or computes (3), for "Did you mean".
func (c *Config) addressesOfDepth(depth int, computes map[string]*Compute) []string {
	if depth == 3 {
		return mapKeys(computes)
	}
	var out []string
	for _, p := range c.Projects {
		if depth == 1 {
			out = append(out, p.Label)
			continue
		}
		for _, b := range p.Branches {
			out = append(out, p.Label+"."+b.Label)
		}
	}
	return out
}

// ProjectMoveRefusal is the one rule of where an endpoint may move, for moved
// blocks and state mv alike: the service moves an endpoint to another branch
// of its project, never to another project (docs/service.md), so a move may
// change every label, the project's too, as long as the project block at to
// names the endpoint's project id. It returns "" for a move the service can
// make, and otherwise why not and the safe ways instead, none of which
// deletes anything: the refusal of a move must not lead to a delete.
// entries, when the caller knows them (state mv of a branch or a project),
// are the state's addresses under from, which the advice forgets in one
// state rm. cmds is the command the advice suggests.
func ProjectMoveRefusal(from, to, fromProjectID, toProjectID string, entries ...string) (why string, cmds []suggested.Command) {
	if fromProjectID == toProjectID {
		return "", nil
	}
	rm := suggested.Run("state", "rm", from)
	forget := rm.Quoted()
	if parts, err := ParsePartialAddress(from); len(entries) > 0 {
		rm = suggested.Run(append([]string{"state", "rm"}, entries...)...)
		forget = rm.Quoted()
	} else if err != nil || len(parts) < 3 {
		// The state is not read here, so the addresses under the prefix are
		// not known: name the command that lists them, which pastes as printed.
		rm = suggested.Run("state", "list", from)
		forget = "`neonform state rm` of the addresses that " + rm.Quoted() + " prints (it takes them all at once)"
	}
	return fmt.Sprintf("%s is in project %s and %s in project %s, and the service moves an endpoint between branches of its project, never to another project. "+
		"Nothing needs to be deleted. Either keep the old label: drop the move, and keep or restore the block at %s; the endpoint stays managed as it is and nothing changes. "+
		"Or forget the old endpoint with %s and let the plan adopt or create %s in project %s: "+
		"the old endpoint keeps running, unmanaged, and is billed until you delete it yourself, and a created one has a new host, so its clients must be told.",
		from, fromProjectID, to, toProjectID, from, forget, to, toProjectID), []suggested.Command{rm}
}
