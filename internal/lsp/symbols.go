package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"go.lsp.dev/protocol"
)

// documentSymbol lists the file's projects, with their branches (and
// branch rules) and those's computes, as the blocks are written.
func (s *server) documentSymbol(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := pathOf(p.TextDocument.URI)
	text := s.directoryOf(path).text(path)
	if doc := s.docs[path]; doc != nil {
		text = doc.text
	}
	return symbolsOf(syntaxOf(text, path), text, nil), nil
}

// symbolKinds are the blocks listed, and how.
var symbolKinds = map[string]protocol.SymbolKind{
	"project":  protocol.SymbolKindModule,
	"branch":   protocol.SymbolKindNamespace,
	"branches": protocol.SymbolKindNamespace,
	"compute":  protocol.SymbolKindClass,
}

func symbolsOf(body *hclsyntax.Body, text []byte, labels []string) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	for _, b := range body.Blocks {
		kind, ok := symbolKinds[b.Type]
		if !ok || len(b.Labels) == 0 {
			continue
		}
		address := append(append([]string{}, labels...), b.Labels[0])
		out = append(out, protocol.DocumentSymbol{
			Name:           b.Labels[0],
			Detail:         b.Type + " " + strings.Join(address, "."),
			Kind:           kind,
			Range:          rangeOf(text, b.Range()),
			SelectionRange: rangeOf(text, b.LabelRanges[0]),
			Children:       symbolsOf(b.Body, text, address),
		})
	}
	return out
}
