package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

// completion offers what may be written at the cursor: a block's
// arguments and blocks, the values of type and account_tier, the sizes the
// account's plan allows, addresses in moved and removed blocks, and the
// names of variables and locals.
func (s *server) completion(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.CompletionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	at, ok := s.at(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, nil
	}
	t := typingAt(at.text, at.path, at.offset)
	var items []protocol.CompletionItem
	switch {
	case t.ref != "":
		items = at.dir.namedValueItems(t.ref, false)
	case t.argument != "":
		items = at.dir.valueItems(t)
	case !t.inExpr:
		items = nameItems(t.path)
	}
	return protocol.CompletionList{Items: items}, nil
}

// nameItems are the arguments and blocks of the block at path.
func nameItems(path []string) []protocol.CompletionItem {
	args, blocks, ok := config.BlockNames(path)
	if !ok {
		return nil
	}
	var items []protocol.CompletionItem
	for _, a := range args {
		item := protocol.CompletionItem{Label: a, Kind: protocol.CompletionItemKindProperty, InsertText: a + " = "}
		if d, ok := aboutArgument(path, a); ok {
			item.Detail = d.kind
			item.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: d.meaning}
		}
		items = append(items, item)
	}
	for _, b := range blocks {
		insert := b.Type
		for _, l := range b.LabelNames {
			insert += fmt.Sprintf(" %q", strings.ToUpper(l))
		}
		item := protocol.CompletionItem{Label: b.Type, Kind: protocol.CompletionItemKindModule, InsertText: insert + " {\n}",
			Detail: "block"}
		if about := aboutBlock(b.Type); about != "" {
			item.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: about}
		}
		items = append(items, item)
	}
	return items
}

// valueItems are the values of the argument being written.
func (d *directory) valueItems(t typing) []protocol.CompletionItem {
	block := ""
	if len(t.path) > 0 {
		block = t.path[len(t.path)-1]
	}
	inCompute := block == "compute" || block == "defaults"
	var items []protocol.CompletionItem
	switch {
	case inCompute && t.argument == "type":
		items = stringItems(t.quoted, string(config.ReadWrite), string(config.ReadOnly))
	case block == "neonform" && t.argument == "account_tier":
		items = stringItems(t.quoted, config.TierNames()...)
	case inCompute && managed.SizeArgument(t.argument) && !t.quoted:
		items = d.sizeItems(t.argument)
	case (block == "moved" && (t.argument == "from" || t.argument == "to")) || (block == "removed" && t.argument == "from"):
		items = d.addressItems(t.argument == "from")
	}
	if !t.quoted {
		items = append(items, d.namedValueItems("", true)...)
	}
	return items
}

// stringItems are values of a string, quoted unless the cursor is in quotes.
func stringItems(quoted bool, values ...string) []protocol.CompletionItem {
	items := make([]protocol.CompletionItem, len(values))
	for i, v := range values {
		insert := v
		if !quoted {
			insert = fmt.Sprintf("%q", v)
		}
		items[i] = protocol.CompletionItem{Label: v, Kind: protocol.CompletionItemKindEnumMember, InsertText: insert}
	}
	return items
}

// sizeItems are the sizes the account's plan allows for the argument
// (size is a fixed size, min_cu and max_cu ends of a range), each with
// what it gives.
func (d *directory) sizeItems(arg string) []protocol.CompletionItem {
	limit := 0.0
	if plan, ok := sizing.PlanOf(d.cfg.Settings.AccountTier); ok {
		limit = plan.MaxAutoscalingCU
		if arg == "size" {
			limit = plan.MaxFixedCU
		}
	}
	var items []protocol.CompletionItem
	for i, cu := range sizing.Sizes() {
		if limit > 0 && cu > limit {
			break
		}
		items = append(items, protocol.CompletionItem{
			Label:    sizing.Format(cu),
			Kind:     protocol.CompletionItemKindValue,
			Detail:   sizing.Describe(sizing.Size{Min: cu, Max: cu}).String(),
			SortText: fmt.Sprintf("%03d", i),
		})
	}
	return items
}

// namedValueItems are the variables and locals: with prefix, "var.x";
// without, after "var." or "local." (root), "x".
func (d *directory) namedValueItems(root string, prefix bool) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, nv := range d.cfg.NamedValues {
		r, name, _ := strings.Cut(nv.Ref, ".")
		if !prefix && r != root {
			continue
		}
		label := name
		if prefix {
			label = nv.Ref
		}
		items = append(items, protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindVariable, Detail: nv.Value})
	}
	return items
}

// addressItems are the addresses a moved or removed block may name: for
// from, those the state holds that no block declares first; then every
// compute, branch and project the configuration declares.
func (d *directory) addressItems(from bool) []protocol.CompletionItem {
	var addrs []string
	declared := d.cfg.ComputesByAddress()
	if st := localState(d.cfg); st != nil && from {
		for addr := range st.Computes {
			if declared[addr] == nil {
				addrs = append(addrs, addr)
			}
		}
		slices.Sort(addrs)
	}
	for _, p := range d.cfg.Projects {
		addrs = append(addrs, p.Label)
		for _, b := range p.Branches {
			addrs = append(addrs, p.Label+"."+b.Label)
			for _, c := range b.Computes {
				addrs = append(addrs, c.Address)
			}
		}
	}
	items := make([]protocol.CompletionItem, len(addrs))
	for i, a := range addrs {
		items[i] = protocol.CompletionItem{Label: a, Kind: protocol.CompletionItemKindReference, SortText: fmt.Sprintf("%05d", i)}
	}
	return items
}
