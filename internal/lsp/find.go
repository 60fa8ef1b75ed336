package lsp

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/config"
)

// syntaxOf is a file's syntax tree, as config reads it (config.Parse);
// with syntax errors, what hcl recovered of it.
func syntaxOf(text []byte, path string) *hclsyntax.Body {
	f, _ := config.Parse(text, path)
	if f == nil {
		return &hclsyntax.Body{}
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return &hclsyntax.Body{}
	}
	return body
}

// spot is what is at an offset of a file: the blocks around it, outermost
// first, and the argument, the reference or the block header it is on.
type spot struct {
	blocks []*hclsyntax.Block
	// attr is the argument the offset is in; onName, on its name.
	attr   *hclsyntax.Attribute
	onName bool
	// ref is the variable reference (var.x, local.y, a bare address) the
	// offset is on.
	ref *hclsyntax.ScopeTraversalExpr
	// header: the offset is on the innermost block's type or labels.
	header bool
}

// path is the types of the blocks around the spot: ["project", "branch", "compute"].
func (s spot) path() []string {
	out := make([]string, len(s.blocks))
	for i, b := range s.blocks {
		out[i] = b.Type
	}
	return out
}

// block is the innermost block around the spot, or nil at the top level.
func (s spot) block() *hclsyntax.Block {
	if len(s.blocks) == 0 {
		return nil
	}
	return s.blocks[len(s.blocks)-1]
}

// spotAt finds what is at offset in body.
func spotAt(body *hclsyntax.Body, offset int) spot {
	var s spot
	for {
		var inner *hclsyntax.Block
		for _, b := range body.Blocks {
			if contains(b.Range(), offset) {
				inner = b
				break
			}
		}
		if inner == nil {
			break
		}
		s.blocks = append(s.blocks, inner)
		if offset <= inner.OpenBraceRange.Start.Byte {
			s.header = true
			return s
		}
		body = inner.Body
	}
	for _, a := range body.Attributes {
		if !contains(a.SrcRange, offset) {
			continue
		}
		s.attr = a
		s.onName = contains(a.NameRange, offset)
		s.ref = referenceAt(a.Expr, offset)
		return s
	}
	return s
}

// referenceAt is the reference in expr that offset is on, or nil.
func referenceAt(expr hclsyntax.Expression, offset int) *hclsyntax.ScopeTraversalExpr {
	var found *hclsyntax.ScopeTraversalExpr
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if t, ok := n.(*hclsyntax.ScopeTraversalExpr); ok && contains(t.SrcRange, offset) {
			found = t
		}
		return nil
	})
	return found
}

// references calls f with every reference in body's expressions.
func references(body *hclsyntax.Body, f func(*hclsyntax.ScopeTraversalExpr)) {
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		if t, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
			f(t)
		}
		return nil
	})
}

// refName is "var.x" or "local.y" for a reference to a variable or a
// local, "" for any other.
func refName(t hcl.Traversal) string {
	if len(t) < 2 {
		return ""
	}
	attr, ok := t[1].(hcl.TraverseAttr)
	if root := t.RootName(); !ok || (root != "var" && root != "local") {
		return ""
	}
	return t.RootName() + "." + attr.Name
}
