package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

// codeAction offers, at the cursor: the moved block a renamed compute
// needs (the one plan suggests), the allowed sizes nearest a size the
// service does not offer or the plan does not allow, and lifecycle {
// prevent_destroy = true } for a compute that lacks it.
func (s *server) codeAction(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	at, ok := s.at(p.TextDocument.URI, p.Range.Start)
	if !ok {
		return nil, nil
	}
	actions := []protocol.CodeAction{}
	compute := innermost(at.spot.blocks, "compute")
	if compute != nil {
		actions = append(actions, at.renameActions(compute)...)
		actions = append(actions, at.sizeActions()...)
		if a, ok := at.preventDestroyAction(compute); ok {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// innermost is the innermost of blocks of that type, or nil.
func innermost(blocks []*hclsyntax.Block, typ string) *hclsyntax.Block {
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].Type == typ {
			return blocks[i]
		}
	}
	return nil
}

// edit is one change of the cursor's file as an action.
func (c *cursor) edit(title string, kind protocol.CodeActionKind, rng protocol.Range, text string) protocol.CodeAction {
	return protocol.CodeAction{Title: title, Kind: kind, Edit: &protocol.WorkspaceEdit{
		Changes: map[protocol.DocumentURI][]protocol.TextEdit{uriOf(c.path): {{Range: rng, NewText: text}}}}}
}

// renameActions: the compute block is at an address the state does not
// hold where a compute the state holds is no longer declared, so plan
// would delete one and create the other; the moved block keeps the
// endpoint (diff.OfflineRenames, config.MovedBlock), added at the file's end.
func (c *cursor) renameActions(compute *hclsyntax.Block) []protocol.CodeAction {
	st := localState(c.dir.cfg)
	if st == nil {
		return nil
	}
	var out []protocol.CodeAction
	for _, r := range diff.OfflineRenames(c.dir.cfg, st) {
		cp := c.dir.cfg.Compute(r.To)
		if cp == nil || cp.DeclRange.Filename != c.path || cp.DeclRange.Start.Byte != compute.DefRange().Start.Byte {
			continue
		}
		end := positionOf(c.text, len(c.text))
		sep := "\n"
		if !strings.HasSuffix(string(c.text), "\n") {
			sep = "\n\n"
		}
		out = append(out, c.edit(fmt.Sprintf("Add a moved block: %s was %s (keeps its endpoint and host)", r.To, r.From),
			protocol.QuickFix, protocol.Range{Start: end, End: end}, sep+config.MovedBlock(r.From, r.To)+"\n"))
	}
	return out
}

// sizeActions: the cursor is on a size written as a number that the
// service does not offer, or above what the account's plan allows; the
// actions write the nearest that are.
func (c *cursor) sizeActions() []protocol.CodeAction {
	a := c.spot.attr
	if a == nil || !managed.SizeArgument(a.Name) {
		return nil
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || v.Type() != cty.Number || !v.IsKnown() || v.IsNull() {
		return nil
	}
	cu, _ := v.AsBigFloat().Float64()
	limit := 0.0
	if plan, ok := sizing.PlanOf(c.dir.cfg.Settings.AccountTier); ok {
		limit = plan.MaxAutoscalingCU
		if a.Name == "size" {
			limit = plan.MaxFixedCU
		}
	}
	var choices []sizing.CU
	switch {
	case limit > 0 && cu > limit:
		choices = []sizing.CU{limit}
	case !sizing.Allowed(cu):
		below, above := sizing.Nearest(cu)
		for _, x := range []sizing.CU{below, above} {
			if x > 0 && (limit == 0 || x <= limit) {
				choices = append(choices, x)
			}
		}
	}
	var out []protocol.CodeAction
	for _, x := range choices {
		out = append(out, c.edit(fmt.Sprintf("Use %s = %s (%s)", a.Name, sizing.Format(x), sizing.Describe(sizing.Size{Min: x, Max: x})),
			protocol.QuickFix, rangeOf(c.text, a.Expr.Range()), sizing.Format(x)))
	}
	return out
}

// preventDestroyAction adds prevent_destroy = true to the compute's
// lifecycle block, or the block itself.
func (c *cursor) preventDestroyAction(compute *hclsyntax.Block) (protocol.CodeAction, bool) {
	const title = "Add lifecycle { prevent_destroy = true }: a plan that would delete or recreate this compute fails"
	indent := strings.Repeat(" ", compute.TypeRange.Start.Column-1)
	for _, b := range compute.Body.Blocks {
		if b.Type != "lifecycle" {
			continue
		}
		if b.Body.Attributes["prevent_destroy"] != nil {
			return protocol.CodeAction{}, false
		}
		at := positionOf(c.text, b.OpenBraceRange.End.Byte)
		return c.edit(title, protocol.RefactorRewrite, protocol.Range{Start: at, End: at},
			"\n"+indent+"    prevent_destroy = true"), true
	}
	closing := compute.CloseBraceRange.Start.Byte
	lineStart := lineStartOf(c.text, closing)
	at := positionOf(c.text, lineStart)
	text := indent + "  lifecycle {\n" + indent + "    prevent_destroy = true\n" + indent + "  }\n"
	if strings.TrimSpace(string(c.text[lineStart:closing])) != "" { // "compute "x" {}" on one line
		at = positionOf(c.text, closing)
		text = "\n" + text + indent
	}
	return c.edit(title, protocol.RefactorRewrite, protocol.Range{Start: at, End: at}, text), true
}

// lineStartOf is the offset of the start of the line that holds offset.
func lineStartOf(text []byte, offset int) int {
	for offset > 0 && text[offset-1] != '\n' {
		offset--
	}
	return offset
}
