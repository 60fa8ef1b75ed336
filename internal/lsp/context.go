package lsp

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// typing is where the cursor is while a line is being written, read from
// hcl's tokens up to it: a half-written file does not parse, but it lexes.
type typing struct {
	// path is the types of the blocks around the cursor; inExpr, the cursor
	// is inside braces of a value (an object), not a block.
	path   []string
	inExpr bool
	// argument is the name before "=" on the cursor's line; "" when the
	// cursor is where a name goes.
	argument string
	// quoted: the cursor is inside a string.
	quoted bool
	// ref is the reference being written ("var", "local") when the cursor
	// follows "var." or "local.".
	ref string
}

// typingAt reads the tokens of text before offset.
func typingAt(text []byte, filename string, offset int) typing {
	tokens, _ := hclsyntax.LexConfig(text[:offset], filename, hcl.Pos{Line: 1, Column: 1})
	var stack []string // block types; "" for the braces of a value
	var line []hclsyntax.Token
	for _, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenEOF:
		case hclsyntax.TokenNewline:
			line = nil
		case hclsyntax.TokenOBrace:
			typ := ""
			if (len(stack) == 0 || stack[len(stack)-1] != "") && len(line) > 0 &&
				line[0].Type == hclsyntax.TokenIdent && !hasEqual(line) {
				typ = string(line[0].Bytes)
			}
			stack = append(stack, typ)
			line = nil
		case hclsyntax.TokenCBrace:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			line = nil
		default:
			line = append(line, tok)
		}
	}
	var t typing
	for _, typ := range stack {
		if typ == "" {
			t.inExpr = true
			break
		}
		t.path = append(t.path, typ)
	}
	if hasEqual(line) && line[0].Type == hclsyntax.TokenIdent {
		t.argument = string(line[0].Bytes)
	}
	quotes := 0
	for _, tok := range line {
		switch tok.Type {
		case hclsyntax.TokenOQuote:
			quotes++
		case hclsyntax.TokenCQuote:
			quotes--
		}
	}
	t.quoted = quotes > 0
	// "var." or "var.na" at the end of the line
	n := len(line)
	if n > 0 && line[n-1].Type == hclsyntax.TokenIdent && n >= 2 && line[n-2].Type == hclsyntax.TokenDot {
		n--
	}
	if n >= 2 && line[n-1].Type == hclsyntax.TokenDot && line[n-2].Type == hclsyntax.TokenIdent {
		if root := string(line[n-2].Bytes); root == "var" || root == "local" {
			t.ref = root
		}
	}
	return t
}

func hasEqual(line []hclsyntax.Token) bool {
	for _, tok := range line {
		if tok.Type == hclsyntax.TokenEqual {
			return true
		}
	}
	return false
}
