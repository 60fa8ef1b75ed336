package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Removal is a removed block, as Terraform 1.7 has them: the compute at From
// is no longer declared, and the block says what becomes of its endpoint.
// With lifecycle { destroy = false } the plan forgets it (the endpoint keeps
// running, unmanaged); with destroy = true, the default, it is deleted, as
// dropping the compute block alone does, and the plan says a removed block
// asked for it.
type Removal struct {
	From      string
	Destroy   bool
	DeclRange hcl.Range
	FromRange hcl.Range
}

var (
	removedSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "from"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
	}
	removedLifecycleSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
	}
)

// decodeRemovals reads the removed blocks and checks them against the
// declared computes and the moved blocks: a removed block names a compute
// that is not declared (a branch rule's instance is checked again at plan
// time, when the rule's branches are known), at most once, and that no
// moved block takes elsewhere.
func (l *loader) decodeRemovals(blocks []*hclsyntax.Block) {
	declared := l.cfg.ComputesByAddress()
	seen := map[string]*Removal{}
	moved := map[string]*Move{}
	for _, m := range l.cfg.Moves {
		moved[m.From] = m
	}
	for _, b := range blocks {
		r, ok := l.decodeRemoval(b)
		if !ok {
			continue
		}
		switch prev := seen[r.From]; {
		case prev != nil:
			l.errorf(r.FromRange, "Duplicate removed block",
				"%s is already removed at %s; remove one of the two removed blocks.", r.From, where(prev.DeclRange))
			continue
		case l.cfg.declares(r.From, declared):
			at := ""
			if c := declared[r.From]; c != nil {
				at = " at " + where(c.DeclRange)
			}
			l.errorf(r.FromRange, "Removed compute is still declared",
				"%s is declared%s, so a removed block cannot take it out of the configuration. Remove its compute block, or remove this removed block.", r.From, at)
			continue
		case moved[r.From] != nil:
			l.errorf(r.FromRange, "Removed compute is moved",
				"The moved block at %s takes %s to %s, so it is not removed. Remove one of the two blocks.", where(moved[r.From].DeclRange), r.From, moved[r.From].To)
			continue
		}
		seen[r.From] = r
		l.cfg.Removals = append(l.cfg.Removals, r)
	}
}

func (l *loader) decodeRemoval(b *hclsyntax.Block) (*Removal, bool) {
	r := &Removal{DeclRange: b.DefRange(), Destroy: true}
	c, diags := bodyContent(b.Body, removedSchema, "a removed block")
	l.diags = append(l.diags, diags...)
	for i, lc := range c.Blocks {
		if i > 0 {
			l.errorf(lc.DefRange(), "Duplicate lifecycle block", "A removed block has one lifecycle block; merge them.")
			continue
		}
		lcc, diags := bodyContent(lc.Body, removedLifecycleSchema, "the lifecycle block of a removed block")
		l.diags = append(l.diags, diags...)
		if v, state := l.boolAttr(lcc.Attributes["destroy"]); state == valid {
			r.Destroy = v
		}
	}
	a := c.Attributes["from"]
	if a == nil {
		l.errorf(r.DeclRange, "Missing removed address",
			"A removed block needs from, the address of the compute that is no longer declared, like shop.main.reports.")
		return nil, false
	}
	s, state := l.moveAddress(a)
	if state != valid {
		return nil, false
	}
	if _, _, _, err := ParseAddress(s); err != nil {
		l.errorf(a.Expr.Range(), "Invalid address", "%v.", err)
		return nil, false
	}
	r.From, r.FromRange = s, a.Expr.Range()
	return r, true
}
