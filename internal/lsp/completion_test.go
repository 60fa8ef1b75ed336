package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// completeAt sets the file's text to text without its cursor mark "‸"
// and asks for completion there: the labels offered.
func (c *client) completeAt(path string, version int32, text string) []string {
	c.t.Helper()
	i := strings.Index(text, "‸")
	text = strings.Replace(text, "‸", "", 1)
	c.Change(path, version, text)
	var list protocol.CompletionList
	c.Call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}, Position: positionOf([]byte(text), i)}}, &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	return labels
}

func TestCompletion(t *testing.T) {
	head := `neonform {
  account_tier = "launch"
}
variable "cu" {
  default = 2
}
locals {
  half = var.cu / 2
}
project "shop" {
  id = "quiet-meadow-52817364"
  branch "main" {
    compute "writer" {
      max_cu = 1
    }
  }
}
`
	dir := writeFiles(t, map[string]string{"main.hcl": head,
		// The state holds shop.main.primary, which no block declares now.
		"neonform.state.json": `{"format_version": 1, "lineage": "3f0a7d4e-8c51-4e0b-9a39-51f0c1b4c001", "serial": 1,
  "computes": {"shop.main.primary": {"endpoint_id": "ep-1", "project_id": "quiet-meadow-52817364", "branch_id": "br-1", "type": "read_write",
    "prevent_destroy": false, "applied": {"min_cu": 1, "max_cu": 1, "suspend_timeout_seconds": 0, "pg_settings": {}, "disabled": false, "name": "primary"}}}}`})
	path := filepath.Join(dir, "main.hcl")
	if _, err := os.Stat(filepath.Join(dir, "neonform.state.json")); err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	c.Open(path)
	tests := []struct {
		name, text string
		want       []string
		not        []string
	}{
		{"a compute block's names", head + "project \"b\" {\n  branch \"x\" {\n    compute \"y\" {\n      ‸\n", []string{"type", "min_cu", "max_cu", "size", "suspend_timeout", "lifecycle", "expected_active_hours"}, []string{"id", "branch"}},
		{"the top level", head + "‸", []string{"neonform", "project", "variable", "locals", "moved", "removed"}, []string{"compute"}},
		{"a project's names", head + "project \"b\" {\n  ‸", []string{"id", "branch", "branches", "defaults", "budget", "for_each"}, []string{"min_cu"}},
		{"type", head + "project \"b\" {\n  branch \"x\" {\n    compute \"y\" {\n      type = ‸", []string{"read_write", "read_only"}, nil},
		{"type in quotes", head + "project \"b\" {\n  branch \"x\" {\n    compute \"y\" {\n      type = \"‸", []string{"read_write", "read_only"}, []string{"var.cu"}},
		// Launch allows up to 16 CU.
		{"a size on Launch", head + "project \"b\" {\n  branch \"x\" {\n    compute \"y\" {\n      size = ‸", []string{"0.25", "1", "16", "var.cu", "local.half"}, []string{"17", "56"}},
		{"var.", head + "project \"b\" {\n  branch \"x\" {\n    compute \"y\" {\n      size = var.‸", []string{"cu"}, []string{"half", "var.cu"}},
		{"local.", head + "project \"b\" {\n  branch \"x\" {\n    compute \"y\" {\n      size = local.h‸", []string{"half"}, []string{"cu"}},
		{"moved from", head + "moved {\n  from = ‸", []string{"shop.main.primary", "shop.main.writer", "shop.main", "shop"}, nil},
		{"account_tier", strings.Replace(head, `account_tier = "launch"`, `account_tier = ‸`, 1), []string{"free", "launch", "scale", "paid"}, nil},
	}
	for i, tt := range tests {
		got := c.completeAt(path, int32(i+2), tt.text)
		expect(t, tt.name, got, func(w string) bool { return slices.Contains(got, w) }, tt.want, tt.not)
	}
	c.Stop()
}
