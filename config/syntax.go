package config

import (
	"bytes"
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/abandon"
)

// closers maps each opening token to the one that closes it.
var closers = map[hclsyntax.TokenType]hclsyntax.TokenType{
	hclsyntax.TokenOBrace:          hclsyntax.TokenCBrace,
	hclsyntax.TokenOBrack:          hclsyntax.TokenCBrack,
	hclsyntax.TokenOParen:          hclsyntax.TokenCParen,
	hclsyntax.TokenTemplateInterp:  hclsyntax.TokenTemplateSeqEnd,
	hclsyntax.TokenTemplateControl: hclsyntax.TokenTemplateSeqEnd,
}

// bracketWords names an opening token and its closer for messages.
var bracketWords = map[hclsyntax.TokenType][3]string{
	hclsyntax.TokenOBrace:          {"brace", "{", "}"},
	hclsyntax.TokenOBrack:          {"bracket", "[", "]"},
	hclsyntax.TokenOParen:          {"parenthesis", "(", ")"},
	hclsyntax.TokenTemplateInterp:  {"interpolation", "${", "}"},
	hclsyntax.TokenTemplateControl: {"template directive", "%{", "}"},
}

// parseFile parses one configuration file, with its syntax errors
// explained; err is ctx's error when an interrupt gave the parse up
// (parseConfig).
func parseFile(ctx context.Context, src []byte, filename string) (*hcl.File, hcl.Diagnostics, error) {
	f, diags, err := parseConfig(ctx, src, filename, hcl.InitialPos)
	if err != nil {
		return nil, nil, err
	}
	return f, explainSyntax(src, filename, diags), nil
}

// parseConfig is hclsyntax.ParseConfig, given up with ctx's error once ctx
// is done (an interrupt): hcl's parser looks at no context, and one file at
// the 8 MiB limit takes seconds of CPU (docs/apply.md, Interrupting). The
// parse is then left to end on its own in its goroutine, its tree dropped
// (internal/abandon): the run exits right after.
func parseConfig(ctx context.Context, src []byte, filename string, pos hcl.Pos) (*hcl.File, hcl.Diagnostics, error) {
	type parsed struct {
		f     *hcl.File
		diags hcl.Diagnostics
	}
	p, err := abandon.Call(ctx, func() parsed {
		f, diags := hclsyntax.ParseConfig(src, filename, pos)
		return parsed{f, diags}
	})
	return p.f, p.diags, err
}

// explainSyntax adds what hcl's syntax errors leave out: where an unclosed
// bracket opens, and what to write after an equals sign with nothing after it.
func explainSyntax(src []byte, filename string, diags hcl.Diagnostics) hcl.Diagnostics {
	diags = explainUnclosed(src, filename, diags)
	for _, d := range diags {
		if d.Subject == nil || d.Subject.Filename != filename || d.Subject.Start.Byte > len(src) {
			continue
		}
		if d.Summary != "Invalid expression" && d.Summary != "Missing expression" {
			continue
		}
		lineStart := bytes.LastIndexByte(src[:d.Subject.Start.Byte], '\n') + 1
		if bytes.HasSuffix(bytes.TrimRight(src[lineStart:d.Subject.Start.Byte], " \t"), []byte("=")) {
			d.Detail += " Nothing follows the equals sign: write the value, as in size = 2 or name = \"reports\", or remove the line."
		}
	}
	return diags
}

// explainUnclosed rewrites the parser's complaint about the end of a file when the
// real mistake is an opening bracket that is never closed. For `b = {` hcl says
// "Missing expression ... found the end of the file" and points at the empty end
// of the file, far from the mistake; this points at the "{" and says to close it.
// Unclosed blocks already get such a message from hcl and are left alone.
func explainUnclosed(src []byte, filename string, diags hcl.Diagnostics) hcl.Diagnostics {
	end := len(bytes.TrimRight(src, " \t\r\n"))
	var atEnd []*hcl.Diagnostic
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Subject != nil && d.Subject.Filename == filename && d.Subject.Start.Byte >= end {
			atEnd = append(atEnd, d)
		}
	}
	if len(atEnd) == 0 {
		return diags
	}
	open := unclosedBracket(src, filename)
	if open == nil {
		return diags
	}
	words := bracketWords[open.Type]
	for _, d := range atEnd {
		d.Summary = "Unclosed " + words[0]
		d.Detail = fmt.Sprintf("This %q has no matching %q before the end of the file. Add the %q where its content ends; if there is one, a bracket or quote inside is missing or one too many.",
			words[1], words[2], words[2])
		d.Subject = open.Range.Ptr()
		d.Context = nil
	}
	return diags
}

// unclosedBracket returns the innermost opening bracket still open at the end of
// src, or nil when every bracket is closed.
func unclosedBracket(src []byte, filename string) *hclsyntax.Token {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	var stack []hclsyntax.Token
	for _, t := range tokens {
		if _, opens := closers[t.Type]; opens {
			stack = append(stack, t)
			continue
		}
		if n := len(stack); n > 0 && closers[stack[n-1].Type] == t.Type {
			stack = stack[:n-1]
		}
	}
	if len(stack) == 0 {
		return nil
	}
	return &stack[len(stack)-1]
}
