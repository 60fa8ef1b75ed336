package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/diff"
)

// Go to definition and references, of variables and locals (var.x,
// local.y) and of projects, branches and computes by their addresses (a
// block, and the moved and removed blocks that name it).

func (s *server) definition(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.DefinitionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	at, target := s.targetAt(p.TextDocumentPositionParams)
	return at.declarationsOf(target), nil
}

// targetAt is the cursor of a request, and what it names ("" for nothing).
func (s *server) targetAt(p protocol.TextDocumentPositionParams) (*cursor, string) {
	at, ok := s.at(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, ""
	}
	target, _ := at.target()
	return at, target
}

// declarationsOf is where a target is declared: a variable's or local's
// declaration, or the block of an address.
func (c *cursor) declarationsOf(target string) []protocol.Location {
	out := []protocol.Location{}
	switch {
	case target == "":
	case named(target):
		if nv, ok := c.dir.cfg.NamedValue(target); ok {
			out = append(out, c.dir.location(nv.DeclRange))
		}
	default:
		for _, b := range c.dir.declarations() {
			if b.address == target {
				out = append(out, c.dir.location(b.rng))
			}
		}
	}
	return out
}

// named reports whether a target is a variable or a local.
func named(target string) bool {
	return strings.HasPrefix(target, "var.") || strings.HasPrefix(target, "local.")
}

func (s *server) references(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	at, target := s.targetAt(p.TextDocumentPositionParams)
	out := []protocol.Location{}
	if target == "" {
		return out, nil
	}
	if p.Context.IncludeDeclaration {
		out = append(out, at.declarationsOf(target)...)
	}
	for _, path := range at.dir.files() {
		text := at.dir.text(path)
		body := syntaxOf(text, path)
		if named(target) {
			references(body, func(t *hclsyntax.ScopeTraversalExpr) {
				if refName(t.Traversal) == target {
					out = append(out, at.dir.location(t.SrcRange))
				}
			})
			continue
		}
		for _, b := range body.Blocks {
			if b.Type != "moved" && b.Type != "removed" {
				continue
			}
			for _, name := range []string{"from", "to"} {
				if a := b.Body.Attributes[name]; a != nil && diff.Covers(target, addressText(a.Expr, text)) {
					out = append(out, at.dir.location(a.Expr.Range()))
				}
			}
		}
	}
	return out, nil
}

// target is what the cursor names: "var.x", "local.y", or the address of
// a project, branch or compute (its block, or a moved or removed block's
// from or to).
func (c *cursor) target() (string, bool) {
	sp := c.spot
	switch {
	case sp.ref != nil && refName(sp.ref.Traversal) != "":
		return refName(sp.ref.Traversal), true
	case sp.attr != nil && sp.onName && len(sp.blocks) == 1 && sp.block().Type == "locals":
		return "local." + sp.attr.Name, true
	case sp.attr != nil && len(sp.blocks) == 1 && (sp.block().Type == "moved" || sp.block().Type == "removed") &&
		(sp.attr.Name == "from" || sp.attr.Name == "to"):
		return addressText(sp.attr.Expr, c.text), true
	case sp.header && sp.block().Type == "variable" && len(sp.block().Labels) == 1:
		return "var." + sp.block().Labels[0], true
	case sp.header:
		return blockAddress(sp.blocks), true
	}
	return "", false
}

// addressText is the address a moved or removed block writes: a string's
// value, or a bare address as written.
func addressText(expr hclsyntax.Expression, text []byte) string {
	if v, diags := expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		return v.AsString()
	}
	r := expr.Range()
	if r.End.Byte > len(text) {
		return ""
	}
	return string(bytes.TrimSpace(r.SliceBytes(text)))
}

// blockAddress is the address of the innermost of blocks (a project,
// branch, branch rule or compute block), "" for another block.
func blockAddress(blocks []*hclsyntax.Block) string {
	var labels []string
	for _, b := range blocks {
		if _, ok := symbolKinds[b.Type]; !ok || len(b.Labels) == 0 {
			return ""
		}
		labels = append(labels, b.Labels[0])
	}
	return strings.Join(labels, ".")
}

// declared is a block with an address, and where its header is.
type declared struct {
	address string
	rng     hcl.Range
}

// declarations are the project, branch and compute blocks of the directory's files.
func (d *directory) declarations() []declared {
	var out []declared
	var walk func(body *hclsyntax.Body, blocks []*hclsyntax.Block)
	walk = func(body *hclsyntax.Body, blocks []*hclsyntax.Block) {
		for _, b := range body.Blocks {
			path := append(append([]*hclsyntax.Block{}, blocks...), b)
			if addr := blockAddress(path); addr != "" {
				out = append(out, declared{address: addr, rng: b.DefRange()})
				walk(b.Body, path)
			}
		}
	}
	for _, path := range d.files() {
		walk(syntaxOf(d.text(path), path), nil)
	}
	return out
}

// files are the directory's configuration files, by path, in order.
func (d *directory) files() []string {
	out := make([]string, 0, len(d.texts))
	for path := range d.texts {
		out = append(out, path)
	}
	sort.Strings(out)
	return out
}

func (d *directory) location(r hcl.Range) protocol.Location {
	return protocol.Location{URI: uriOf(r.Filename), Range: d.rangeIn(r)}
}
