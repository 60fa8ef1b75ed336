package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// move is a moved block with the ranges its checks point at.
type move struct {
	*Move
	fromRange, toRange hcl.Range
}

// decodeMoves reads the moved blocks and checks them against the declared computes:
// a move goes to a compute that is declared, from one that is not any more, within
// one project (the service can reassign a branch, not a project), and no two moves
// share a source or a target.
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
		if _, _, _, err := ParseAddress(s); err != nil {
			l.errorf(a.Expr.Range(), "Invalid address", "%v.", err)
			ok = false
			continue
		}
		if name == "from" {
			m.From, m.fromRange = s, a.Expr.Range()
		} else {
			m.To, m.toRange = s, a.Expr.Range()
		}
	}
	if ok && m.From == m.To {
		l.errorf(m.toRange, "Move to the same address",
			"from and to are both %s, so nothing moves; remove this moved block.", m.To)
		ok = false
	}
	return m, ok
}

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
	if declared[m.From] != nil {
		l.errorf(m.fromRange, "Move from a declared compute",
			"%s is still declared, so it cannot also have moved to %s. Remove or rename its compute block, or remove this moved block.", m.From, m.To)
	}
	if declared[m.To] == nil {
		detail := fmt.Sprintf("No compute is declared at %s, so there is nothing to move %s to.", m.To, m.From)
		for _, other := range all {
			if other.From == m.To {
				detail += fmt.Sprintf(" %s itself moves to %s: write one moved block from %s to %s instead of a chain.", m.To, other.To, m.From, other.To)
				break
			}
		}
		if s := suggest(m.To, mapKeys(declared)); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		} else {
			detail += " Declare the compute there, or fix the address."
		}
		l.errorf(m.toRange, "Move to an undeclared compute", "%s", detail)
	}
	if !SameProjectBlock(m.From, m.To) {
		l.errorf(m.toRange, "Move across projects",
			"A compute can move to another branch of its project (the service reassigns its branch), not to another project. Remove this moved block: %s will be deleted and %s created.", m.From, m.To)
	}
}
