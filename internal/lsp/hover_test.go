package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const priced = `neonform {
  account_tier = "scale"
}

variable "cu" {
  type    = number
  default = 2
}

variable "secret_cu" {
  type      = number
  default   = 4
  sensitive = true
}

locals {
  replica = var.cu / 2
}

project "shop" {
  id = "quiet-meadow-52817364"

  branch "main" {
    compute "primary" {
      min_cu          = 0.25
      max_cu          = var.cu
      suspend_timeout = "10m"
    }
    compute "reports" {
      type = "read_only"
      size = local.replica
    }
    compute "hidden" {
      type = "read_only"
      size = var.secret_cu
    }
  }
}
`

// hoverAt asks for the hover at the first occurrence of marker in the
// file's text, plus shift characters.
func (c *client) hoverAt(path, text, marker string, shift int) string {
	c.t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		c.t.Fatalf("%q is not in the text", marker)
	}
	var h *protocol.Hover
	c.Call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}, Position: positionOf([]byte(text), i+shift)}}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

func TestHover(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": priced})
	path := filepath.Join(dir, "main.hcl")
	c := startServer(t)
	if d := c.Open(path); len(d) != 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	tests := []struct {
		marker string
		shift  int
		want   []string
		never  []string
	}{
		// A size: what the compute gets, and costs on the Scale plan ($0.222 a CU-hour).
		{marker: "max_cu", want: []string{"shop.main.primary", "0.25-2 CU autoscaling", "1-8 GB RAM", "LFC 0.75-6 GB", "temp disk 30 GiB", "up to 112-901 connections", "$0.00–$324.12",
			"Scales to zero after 10m0s", "Scale plan", "$", "Changing it on a running compute: **restart**"}},
		{marker: `size = local`, want: []string{"shop.main.reports", "1 CU fixed", "4 GB RAM", "Scale plan"}},
		{marker: "suspend_timeout", want: []string{"Changing it on a running compute: **none**", "Scales to zero after 10m0s"}},
		{marker: `type = "read_only"`, want: []string{"**type**", "Changing it on a running compute: **recreate**"}},
		// A size from a sensitive variable is never shown, nor its cost.
		{marker: "size = var.secret_cu", want: []string{"shop.main.hidden", "size from a sensitive variable"}, never: []string{"16 GB", "4 CU"}},
		// References: the value, never a sensitive one.
		{marker: "local.replica", shift: 7, want: []string{"local.replica = 1", "main.hcl:17"}},
		{marker: "var.cu\n", shift: 5, want: []string{"var.cu = 2", "main.hcl:5"}},
		{marker: "var.secret_cu", shift: 5, want: []string{"(sensitive value from var.secret_cu)"}, never: []string{"= 4"}},
		// A block header: the reference's words.
		{marker: `compute "primary"`, want: []string{"**compute** block", "compute endpoint"}},
		{marker: `account_tier`, want: []string{"account's plan"}},
	}
	for _, tt := range tests {
		got := c.hoverAt(path, priced, tt.marker, tt.shift)
		expect(t, "hover on "+tt.marker, got, func(w string) bool { return strings.Contains(got, w) }, tt.want, tt.never)
	}
	c.Stop()
}

// expect checks that what has says of got holds for each of want and none
// of never.
func expect(t *testing.T, what string, got any, has func(string) bool, want, never []string) {
	t.Helper()
	for _, w := range want {
		if !has(w) {
			t.Errorf("%s: %q lacks %q", what, got, w)
		}
	}
	for _, n := range never {
		if has(n) {
			t.Errorf("%s: %q has %q", what, got, n)
		}
	}
}
