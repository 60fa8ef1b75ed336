package lsp

import (
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.lsp.dev/protocol"
)

// The server never reaches the service, and never reads the API key: with
// api_url pointing at a listener and NEON_API_KEY set, every request of an
// editor's session leaves the listener untouched, and env("NEON_API_KEY")
// reads nothing.
func TestNoNetworkNoAPIKey(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var contacted atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			contacted.Add(1)
			conn.Close()
		}
	}()
	const key = "napi_thekeythatmustnotleak"
	text := `neonform {
  api_url      = "http://` + ln.Addr().String() + `/api/v2"
  account_tier = "scale"
}
locals {
  key = env("NEON_API_KEY")
}
project "shop" {
  id = "quiet-meadow-52817364"
  branch "main" {
    compute "primary" {
      size = 2
      name = "p${local.key}"
    }
  }
}
moved {
  from = shop.main.old
  to   = shop.main.primary
}
`
	dir := writeFiles(t, map[string]string{"main.hcl": text})
	path := filepath.Join(dir, "main.hcl")
	c := startServer(t, "NEON_API_KEY="+key, "NEON_API_URL=http://"+ln.Addr().String())
	c.Open(path)
	if h := c.hoverAt(path, text, "local.key", 7); strings.Contains(h, key) || !strings.Contains(h, `local.key = ""`) {
		t.Errorf("hover on local.key: %q", h)
	}
	c.hoverAt(path, text, "size", 0)
	c.completeAt(path, 2, strings.Replace(text, "size = 2", "size = ‸", 1))
	c.completeAt(path, 3, strings.Replace(text, "from = shop.main.old", "from = ‸", 1))
	c.actionsAt(path, position(t, text, "size", 0))
	var locs []protocol.Location
	c.Call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: docPos(path, position(t, text, `compute "primary"`, 9))}, &locs)
	c.Call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: docPos(path, position(t, text, "shop.main.primary", 3))}, &locs)
	var symbols []protocol.DocumentSymbol
	c.Call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}}, &symbols)
	var edits []protocol.TextEdit
	c.Call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}}, &edits)
	c.Stop()
	if n := contacted.Load(); n > 0 {
		t.Errorf("the server connected to api_url %d times", n)
	}
}
