package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const quickstart = `project "shop" {
  id = "quiet-meadow-52817364"

  branch "main" {
    compute "primary" {
      min_cu = 0.25
      max_cu = 2
    }
  }
}
`

// An edit is checked as validate checks the file: a mistake typed is
// published at its place, and fixing it clears it; shutdown and exit end
// the server cleanly.
func TestDiagnosticsAsYouType(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": quickstart})
	path := filepath.Join(dir, "main.hcl")
	c := startServer(t)
	if d := c.Open(path); len(d) != 0 {
		t.Fatalf("diagnostics of a valid file: %+v", d)
	}
	bad := strings.Replace(quickstart, "max_cu = 2", "max_cu = 2.7", 1)
	d := c.Change(path, 2, bad)
	if len(d) != 1 {
		t.Fatalf("diagnostics after max_cu = 2.7: %+v", d)
	}
	want := protocol.Range{Start: protocol.Position{Line: 6, Character: 15}, End: protocol.Position{Line: 6, Character: 18}}
	if d[0].Range != want || d[0].Severity != protocol.DiagnosticSeverityError || !strings.Contains(d[0].Message, "2.7") {
		t.Errorf("diagnostic = %+v, want an error at %+v", d[0], want)
	}
	if d := c.Change(path, 3, quickstart); len(d) != 0 {
		t.Errorf("diagnostics after the fix: %+v", d)
	}
	c.Stop()
}

// Closing a directory's last open file takes its diagnostics back, and a
// file opened again is read from disk as it is then.
func TestCloseForgetsTheDirectory(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": quickstart})
	path := filepath.Join(dir, "main.hcl")
	c := startServer(t)
	c.Open(path)
	if d := c.Change(path, 2, strings.Replace(quickstart, "max_cu = 2", "max_cu = 2.7", 1)); len(d) != 1 {
		t.Fatalf("diagnostics: %+v", d)
	}
	c.Notify(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}})
	if d := c.WaitFor(path, 0); len(d) != 0 {
		t.Errorf("diagnostics after close: %+v", d)
	}
	if d := c.Open(path); len(d) != 0 {
		t.Errorf("diagnostics of the file on disk, opened again: %+v", d)
	}
	c.Stop()
}
