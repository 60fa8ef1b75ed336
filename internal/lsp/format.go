package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
)

// formatting formats the file as neonform fmt does (config.Format): one
// edit that replaces the whole text, none when it is formatted already or
// does not parse.
func (s *server) formatting(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.DocumentFormattingParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := pathOf(p.TextDocument.URI)
	doc := s.docs[path]
	if doc == nil {
		return []protocol.TextEdit{}, nil
	}
	out, diags := config.Format(doc.text, path)
	if diags.HasErrors() || string(out) == string(doc.text) {
		return []protocol.TextEdit{}, nil
	}
	whole := protocol.Range{End: positionOf(doc.text, len(doc.text))}
	return []protocol.TextEdit{{Range: whole, NewText: string(out)}}, nil
}
