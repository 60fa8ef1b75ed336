package lsp

import (
	"context"
	"encoding/json"
)

func (s *server) definition(context.Context, json.RawMessage) (any, error)     { return nil, nil }
func (s *server) references(context.Context, json.RawMessage) (any, error)     { return nil, nil }
func (s *server) codeAction(context.Context, json.RawMessage) (any, error)     { return nil, nil }
func (s *server) formatting(context.Context, json.RawMessage) (any, error)     { return nil, nil }
func (s *server) documentSymbol(context.Context, json.RawMessage) (any, error) { return nil, nil }
