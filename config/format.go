package config

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/neonform/neonform/internal/diag"
)

// Format returns src in the canonical layout of neonform files: hclwrite's
// indentation and alignment of "=" and comments, at most one blank line in a
// row, no blank lines at the start, and exactly one newline at the end.
// Comments and the content of heredocs are kept as they are.
//
// It refuses a file that does not parse and returns its diagnostics instead,
// because re-spacing broken syntax can make it harder to fix. Formatting a
// formatted file changes nothing.
func Format(src []byte, filename string) ([]byte, diag.Diagnostics) {
	out, diags := format(src, filename)
	return out, diag.FromHCL(diags)
}

// format is Format in hcl's diagnostics, which hclwrite's parser makes.
func format(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	// hclwrite's parser is hclsyntax's, with the same limits to respect.
	b := newBudget()
	if !b.take(len(src)) {
		return nil, hcl.Diagnostics{tooLarge(filename)}
	}
	if d := b.checkShape(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	f, diags := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	diags = explainSyntax(src, filename, diags)
	if diags.HasErrors() {
		return nil, diags
	}
	tokens := dropExtraBlankLines(f.BuildTokens(nil))
	out := hclwrite.Format(tokens.Bytes())
	return endWithOneNewline(out), diags
}

// dropExtraBlankLines removes newline tokens that would make a second blank
// line in a row, and those before the first item. The content of a heredoc is
// a string literal token, so its blank lines are never touched.
func dropExtraBlankLines(tokens hclwrite.Tokens) hclwrite.Tokens {
	out := tokens[:0:0]
	lineEnds := 2 // the start of the file counts as after a blank line
	for _, t := range tokens {
		switch {
		case t.Type == hclsyntax.TokenNewline:
			if lineEnds >= 2 {
				continue
			}
			lineEnds++
		case t.Type == hclsyntax.TokenComment && bytes.HasSuffix(t.Bytes, []byte("\n")):
			// A line comment ("# ..." or "// ...") carries its own newline.
			lineEnds = 1
		case t.Type == hclsyntax.TokenEOF:
		default:
			lineEnds = 0
		}
		out = append(out, t)
	}
	return out
}

// endWithOneNewline trims trailing blank lines and ends a non-empty file with a
// single line ending, in the file's own style (CRLF if it uses CRLF).
func endWithOneNewline(src []byte) []byte {
	eol := []byte("\n")
	if bytes.Contains(src, []byte("\r\n")) {
		eol = []byte("\r\n")
	}
	trimmed := bytes.TrimRight(src, " \t\r\n")
	if len(trimmed) == 0 {
		return []byte{}
	}
	return append(trimmed, eol...)
}
