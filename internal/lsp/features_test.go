package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
)

// position is where marker first is in text, plus shift characters.
func position(t *testing.T, text, marker string, shift int) protocol.Position {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q is not in the text", marker)
	}
	return positionOf([]byte(text), i+shift)
}

func docPos(path string, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}, Position: p}
}

// lines are the lines of locations, as "file:line".
func lines(locs []protocol.Location) []string {
	var out []string
	for _, l := range locs {
		out = append(out, fmt.Sprintf("%s:%d", filepath.Base(pathOf(l.URI)), l.Range.Start.Line+1))
	}
	slices.Sort(out)
	return out
}

const twoFiles = `variable "cu" {
  default = 1
}
locals {
  size = var.cu * 2
}
project "shop" {
  id = "quiet-meadow-52817364"
  branch "main" {
    compute "primary" {
      size = local.size
    }
    compute "reports" {
      type = "read_only"
      size = var.cu
    }
  }
}
`

const movesFile = `moved {
  from = shop.main.old
  to   = shop.main.primary
}
`

func TestDefinitionAndReferences(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": twoFiles, "moves.hcl": movesFile})
	main, moves := filepath.Join(dir, "main.hcl"), filepath.Join(dir, "moves.hcl")
	c := startServer(t)
	c.Open(main)
	c.Open(moves)

	var locs []protocol.Location
	c.Call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: docPos(main, position(t, twoFiles, "var.cu\n", 5))}, &locs)
	if got := lines(locs); !slices.Equal(got, []string{"main.hcl:1"}) {
		t.Errorf("definition of var.cu: %v", got)
	}
	c.Call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: docPos(main, position(t, twoFiles, "local.size", 7))}, &locs)
	if got := lines(locs); !slices.Equal(got, []string{"main.hcl:5"}) {
		t.Errorf("definition of local.size: %v", got)
	}
	// A moved block's to is the compute block it names.
	c.Call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: docPos(moves, position(t, movesFile, "shop.main.primary", 3))}, &locs)
	if got := lines(locs); !slices.Equal(got, []string{"main.hcl:10"}) {
		t.Errorf("definition of shop.main.primary: %v", got)
	}

	// References of var.cu, from its declaration: its uses, with the declaration.
	c.Call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: docPos(main, position(t, twoFiles, `variable "cu"`, 10)),
		Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &locs)
	if got := lines(locs); !slices.Equal(got, []string{"main.hcl:1", "main.hcl:15", "main.hcl:5"}) {
		t.Errorf("references of var.cu: %v", got)
	}
	// References of a compute: the moved block that names it, in the other file.
	c.Call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: docPos(main, position(t, twoFiles, `compute "primary"`, 10))}, &locs)
	if got := lines(locs); !slices.Equal(got, []string{"moves.hcl:3"}) {
		t.Errorf("references of shop.main.primary: %v", got)
	}
	// Of its branch: the moved block's from and to are both under it.
	c.Call(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: docPos(main, position(t, twoFiles, `branch "main"`, 9))}, &locs)
	if got := lines(locs); !slices.Equal(got, []string{"moves.hcl:2", "moves.hcl:3"}) {
		t.Errorf("references of shop.main: %v", got)
	}
	c.Stop()
}

func TestDocumentSymbolsAndFormatting(t *testing.T) {
	messy := "project \"shop\" {\n id = \"quiet-meadow-52817364\"\n  branch \"main\" {\n compute \"primary\" {\n  size=1\n }\n }\n}\n"
	dir := writeFiles(t, map[string]string{"main.hcl": messy})
	path := filepath.Join(dir, "main.hcl")
	c := startServer(t)
	c.Open(path)
	var symbols []protocol.DocumentSymbol
	c.Call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}}, &symbols)
	if len(symbols) != 1 || symbols[0].Name != "shop" || len(symbols[0].Children) != 1 || symbols[0].Children[0].Name != "main" ||
		len(symbols[0].Children[0].Children) != 1 || symbols[0].Children[0].Children[0].Detail != "compute shop.main.primary" {
		t.Errorf("symbols: %+v", symbols)
	}

	var edits []protocol.TextEdit
	c.Call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}}, &edits)
	want, diags := config.Format([]byte(messy), path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(edits) != 1 || edits[0].NewText != string(want) || edits[0].Range.Start != (protocol.Position{}) ||
		edits[0].Range.End != positionOf([]byte(messy), len(messy)) {
		t.Errorf("formatting: %+v, want the whole text replaced by neonform fmt's %q", edits, want)
	}
	c.Change(path, 2, string(want))
	c.Call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting a formatted file: %+v", edits)
	}
	c.Stop()
}
