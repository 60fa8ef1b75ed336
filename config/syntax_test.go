package config

import (
	"context"
	"fmt"
	"testing"
)

func TestUnclosedBracketsPointAtTheOpener(t *testing.T) {
	tests := []struct {
		src  string
		want string // "line:col summary" of the first diagnostic
	}{
		{"b = {\n", "1:5 Unclosed brace"},
		{"b = {\n  c = 1\n\n\n", "1:5 Unclosed brace"},
		{"b = [1,\n", "1:5 Unclosed bracket"},
		{"b = (1\n", "1:5 Unclosed parenthesis"},
		// hcl already points at the opener for these; its messages are kept.
		{"a = { x = [1, 2\n", "1:11 Unterminated tuple constructor expression"},
		{"a = \"${upper(\"x\")\n", "1:6 Unclosed template interpolation sequence"},
		{"a = {\n  x = [1]\n  y = max(1,\n", "3:10 Unclosed parenthesis"},
		{"project \"x\" {\n  id = 1\n", "1:13 Unclosed configuration block"},
		// A mistake that is not at the end of the file is not touched.
		{"a = \n b = 2\n", "1:5 Invalid expression"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.src), func(t *testing.T) {
			_, diags, _ := parseFile(context.Background(), []byte(tt.src), "x.hcl")
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			d := diags[0]
			got := fmt.Sprintf("%d:%d %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary)
			if got != tt.want {
				t.Errorf("got %s (%s), want %s", got, d.Detail, tt.want)
			}
			// Format refuses the file with the same message.
			if _, fd := Format([]byte(tt.src), "x.hcl"); fd[0].Summary != d.Summary {
				t.Errorf("Format says %q, Load says %q", fd[0].Summary, d.Summary)
			}
		})
	}
}
