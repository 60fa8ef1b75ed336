package lsp

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
)

// apply makes a code action's edits of one file on its text.
func apply(t *testing.T, text string, a protocol.CodeAction) string {
	t.Helper()
	if a.Edit == nil || len(a.Edit.Changes) != 1 {
		t.Fatalf("action %q edits %+v", a.Title, a.Edit)
	}
	for _, edits := range a.Edit.Changes {
		sort.Slice(edits, func(i, j int) bool {
			return offsetOf([]byte(text), edits[i].Range.Start) > offsetOf([]byte(text), edits[j].Range.Start)
		})
		for _, e := range edits {
			start, end := offsetOf([]byte(text), e.Range.Start), offsetOf([]byte(text), e.Range.End)
			text = text[:start] + e.NewText + text[end:]
		}
	}
	return text
}

func (c *client) actionsAt(path string, p protocol.Position) map[string]protocol.CodeAction {
	c.t.Helper()
	var actions []protocol.CodeAction
	c.Call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)},
		Range: protocol.Range{Start: p, End: p}}, &actions)
	out := map[string]protocol.CodeAction{}
	for _, a := range actions {
		out[a.Title] = a
	}
	return out
}

func find(actions map[string]protocol.CodeAction, prefix string) (protocol.CodeAction, bool) {
	for title, a := range actions {
		if strings.HasPrefix(title, prefix) {
			return a, true
		}
	}
	return protocol.CodeAction{}, false
}

func TestCodeActions(t *testing.T) {
	text := `neonform {
  account_tier = "launch"
}
project "shop" {
  id = "quiet-meadow-52817364"
  branch "main" {
    compute "writer" {
      max_cu = 1
      min_cu = 0.25
    }
    compute "reader" {
      type = "read_only"
      size = 2.7
    }
    compute "big" {
      type = "read_only"
      size = 30
      lifecycle {
        allow_restart = false
      }
    }
  }
}
`
	dir := writeFiles(t, map[string]string{"main.hcl": text,
		// The state's shop.main.primary is now declared as writer.
		"neonform.state.json": `{"format_version": 1, "lineage": "3f0a7d4e-8c51-4e0b-9a39-51f0c1b4c001", "serial": 1,
  "computes": {"shop.main.primary": {"endpoint_id": "ep-1", "project_id": "quiet-meadow-52817364", "branch_id": "br-1", "type": "read_write",
    "prevent_destroy": false, "applied": {"min_cu": 1, "max_cu": 1, "suspend_timeout_seconds": 0, "pg_settings": {}, "disabled": false, "name": "primary"}}}}`})
	path := filepath.Join(dir, "main.hcl")
	c := startServer(t)
	c.Open(path)

	// The rename: plan's moved block, at the end of the file.
	writer := c.actionsAt(path, position(t, text, "max_cu = 1", 0))
	a, ok := find(writer, "Add a moved block: shop.main.writer was shop.main.primary")
	if !ok {
		t.Fatalf("no moved block action on writer: %v", writer)
	}
	if got, want := apply(t, text, a), text+"\n"+config.MovedBlock("shop.main.primary", "shop.main.writer")+"\n"; got != want {
		t.Errorf("moved block action gives\n%s", got)
	}
	// prevent_destroy, added as a lifecycle block, formatted as fmt would.
	a, ok = find(writer, "Add lifecycle { prevent_destroy = true }")
	if !ok {
		t.Fatalf("no prevent_destroy action on writer: %v", writer)
	}
	got := apply(t, text, a)
	if formatted, _ := config.Format([]byte(got), path); string(formatted) != got || !strings.Contains(got, "      min_cu = 0.25\n\n      lifecycle {\n        prevent_destroy = true\n      }\n    }") &&
		!strings.Contains(got, "      min_cu = 0.25\n      lifecycle {\n        prevent_destroy = true\n      }\n    }") {
		t.Errorf("prevent_destroy action gives\n%s", got)
	}
	c.Change(path, 2, got)
	c.Change(path, 3, text)

	// 2.7 is no size: 2 and 3 are the nearest.
	reader := c.actionsAt(path, position(t, text, "2.7", 1))
	for _, want := range []string{"Use size = 2 (2 CU fixed", "Use size = 3 (3 CU fixed"} {
		a, ok := find(reader, want)
		if !ok {
			t.Errorf("no %q: %v", want, reader)
			continue
		}
		if got := apply(t, text, a); !strings.Contains(got, "size = "+want[11:12]+"\n") {
			t.Errorf("%q gives\n%s", want, got)
		}
	}
	if _, ok := find(reader, "Add a moved block"); ok {
		t.Error("a moved block offered on reader, which the state does not name")
	}
	// 30 is a size, but Launch allows 16 at most.
	big := c.actionsAt(path, position(t, text, "size = 30", 8))
	if _, ok := find(big, "Use size = 16"); !ok || len(big) != 2 {
		t.Errorf("actions on size = 30 on Launch: %v", big)
	}
	// Its lifecycle block takes prevent_destroy.
	a, _ = find(big, "Add lifecycle")
	if got := apply(t, text, a); !strings.Contains(got, "lifecycle {\n        prevent_destroy = true\n        allow_restart = false") {
		t.Errorf("prevent_destroy into a lifecycle block gives\n%s", got)
	}
	c.Stop()
}
