package config

import (
	"bytes"
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/bounded"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/memlimit"
)

// Parse parses one configuration or variable file, after checking that it
// fits MaxBytes, MaxTokens and MaxNesting; syntax errors come with what hcl's
// messages leave out (syntax.go). The file is nil when it was refused.
func Parse(src []byte, filename string) (*hcl.File, diag.Diagnostics) {
	b := newBudget()
	if !b.take(len(src)) {
		return nil, diag.FromHCL(hcl.Diagnostics{tooLarge(filename)})
	}
	f, diags, _ := b.parse(context.Background(), src, filename)
	return f, diag.FromHCL(diags)
}

// parse checks the file's shape, then parses it; err is ctx's error when
// an interrupt gave the parse up (parseConfig).
func (b *budget) parse(ctx context.Context, src []byte, filename string) (*hcl.File, hcl.Diagnostics, error) {
	if d := b.checkShape(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}, nil
	}
	// load keeps every file's tree: room for all the tokens so far.
	memlimit.Need(hclBytesPerToken * int64(MaxTokens-b.tokens))
	return parseFile(ctx, src, filename)
}

// parse is budget.parse under the run's context: when an interrupt gives
// the parse up, the load stops there as stopBefore stops it, and stopped
// is true.
func (l *loader) parse(src []byte, filename string) (f *hcl.File, diags hcl.Diagnostics, stopped bool) {
	f, diags, err := l.budget.parse(l.evalBudget.ctx, src, filename)
	if err != nil {
		l.cfg.Files[filename] = &hcl.File{Bytes: src} // for the diagnostic's source line (finish)
		return nil, nil, l.stopBefore(filename)
	}
	return f, diags, false
}

// hclBytesPerToken is about what hcl holds while it parses (its tokens and
// syntax tree), per token: at most 400 bytes, in a list of 330,000 objects
// within the limits; 270 in a list of numbers (docs/PERFORMANCE.md).
const hclBytesPerToken = 400

func tooLarge(filename string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Configuration too large",
		Detail: fmt.Sprintf("%s makes the configuration larger than %s, the most neonform reads. A real configuration is far smaller: is it the right file?",
			filename, bounded.MiB(MaxBytes)),
	}
}

// checkShape reads src as hcl's lexer would, without parsing it, and refuses
// it when it nests deeper than MaxNesting or holds more tokens than the
// budget has left. It runs before hcl parses a file because hcl's parser
// recurses once or more per level of nesting: a file of 100,000 "(" ends the
// process with a stack overflow, which no recover() can catch.
func (b *budget) checkShape(src []byte, filename string) *hcl.Diagnostic {
	_, d := b.scanShape(src, filename)
	return d
}

// scanShape is checkShape that also returns the top level of the file as
// the scanner sees it (byfile.go).
func (b *budget) scanShape(src []byte, filename string) (*outline, *hcl.Diagnostic) {
	n := &nesting{levels: []level{{body: true, block: true, item: -1}}, tokensLeft: b.tokens}
	sc := newScanner(src, n.token)
	n.scanner = sc
	sc.run()
	b.tokens = n.tokensLeft - sc.others
	return &n.outline, n.problem(src, filename, b.tokens)
}

// problem is why the scanned file is refused, or nil.
func (n *nesting) problem(src []byte, filename string, tokensLeft int) *hcl.Diagnostic {
	switch {
	case n.tooDeep:
		start := posAt(src, n.where, n.whereLine)
		end := posAt(src, n.whereEnd, n.whereLine)
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Nesting too deep",
			Detail: fmt.Sprintf("It nests more than %d levels deep, by line %d: brackets, braces, blocks, strings, operators and conditionals inside one another each add a level. "+
				"neonform stops before parsing the file, because nesting this deep would exhaust its stack; a real configuration needs fewer than ten levels. "+
				"Break the expression up with locals, or look for brackets that open and never close.",
				MaxNesting, n.deepLine),
			Subject: &hcl.Range{Filename: filename, Start: start, End: end},
		}
	case tokensLeft < 0:
		pos := posAt(src, n.lastStart, n.lastLine)
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Configuration too large",
			Detail: fmt.Sprintf("The configuration holds more than %s tokens (names, numbers, symbols and pieces of text), the most neonform reads; this file passes the count here. "+
				"A real configuration is far smaller: 1,000 projects of 10 computes hold about 500,000. Is this the right file, or is a long list generated where a for_each or a local would do?",
				"2,000,000"),
			Subject: &hcl.Range{Filename: filename, Start: pos, End: pos},
		}
	}
	return nil
}

// nesting counts how deep the syntax tree hcl would build from the tokens
// goes: one level for each bracket, brace, string, heredoc and template
// sequence still open, and one for each operator (or conditional, index or
// attribute access) of the expression being read in each of them, since a
// chain such as 1+1+1... becomes a tree as deep as it is long, and
// evaluating it recurses as deep. A comma ends an expression; so does a
// newline in a block, an object or the file (inside brackets, hcl reads on
// across newlines).
type nesting struct {
	scanner    *scanner
	levels     []level
	depth      int
	tokensLeft int

	prev                hclsyntax.TokenType
	lastStart, lastLine int

	tooDeep                    bool
	where, whereEnd, whereLine int // the start of the deep nesting
	deepLine                   int // where it passed the limit

	outline outline
}

type level struct {
	// body: newlines end expressions in it (the file, a block, an object).
	body bool
	// block: a block's body (or the file), not part of an expression.
	block bool
	ops   int
	// item is where the attribute or block being read in this level began,
	// -1 before its first token.
	item, itemEnd, itemLine int
}

func (n *nesting) token(t hclsyntax.TokenType, start, end, line int) {
	n.tokensLeft--
	n.lastStart, n.lastLine = start, line
	if n.tokensLeft-n.scanner.others < 0 {
		n.scanner.stop = true
		return
	}
	top := &n.levels[len(n.levels)-1]
	if top.item < 0 && t != hclsyntax.TokenNewline && t != hclsyntax.TokenComment {
		top.item, top.itemEnd, top.itemLine = start, end, line
		if len(n.levels) == 1 {
			n.outline.items = append(n.outline.items, start)
		}
	}
	prev := n.prev
	n.prev = t
	switch t {
	case hclsyntax.TokenOBrace:
		// After a block's type or label it opens a body; anywhere else, an object.
		block := top.block && (prev == hclsyntax.TokenIdent || prev == hclsyntax.TokenCQuote)
		if block && len(n.levels) == 1 {
			n.outline.opens(n.scanner.src, top.item, top.itemEnd, end)
		}
		n.push(level{body: true, block: block, item: -1}, line)
	case hclsyntax.TokenOBrack:
		if endsValue(prev) {
			n.op(line) // an index: x[a][b]... nests like an operator chain
		}
		n.push(level{item: -1}, line)
	case hclsyntax.TokenOParen, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc,
		hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
		n.push(level{item: -1}, line)
	case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
		hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
		if len(n.levels) > 1 {
			n.depth -= 1 + top.ops
			n.levels = n.levels[:len(n.levels)-1]
		}
		if len(n.levels) == 1 {
			n.outline.closes(t, start, end, line)
		}
	case hclsyntax.TokenComma:
		n.endExpression(top)
	case hclsyntax.TokenNewline:
		if top.body {
			n.endExpression(top)
		}
	case hclsyntax.TokenComment:
		// A one-line comment takes the newline after it, and hcl reads it as one.
		if top.body && end > start && n.scanner.src[end-1] == '\n' {
			n.endExpression(top)
		}
	case hclsyntax.TokenIdent:
		// %{ if }...%{ endif } and %{ for }...%{ endfor } nest in the
		// template around the sequence, without brackets.
		if prev == hclsyntax.TokenTemplateControl && len(n.levels) > 1 {
			around := &n.levels[len(n.levels)-2]
			switch string(n.scanner.src[start:end]) {
			case "if", "for":
				around.ops++
				n.depth++
				n.check(line)
			case "endif", "endfor":
				if around.ops > 0 {
					around.ops--
					n.depth--
				}
			}
		}
	case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
		hclsyntax.TokenBang, hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenGreaterThan,
		hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr,
		hclsyntax.TokenQuestion, hclsyntax.TokenDot:
		n.op(line)
	}
}

// endsValue: a "[" after this token is an index, not a list.
func endsValue(t hclsyntax.TokenType) bool {
	switch t {
	case hclsyntax.TokenIdent, hclsyntax.TokenNumberLit, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
		hclsyntax.TokenCBrace, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenStar:
		return true
	}
	return false
}

func (n *nesting) push(l level, line int) {
	n.levels = append(n.levels, l)
	n.depth++
	n.check(line)
}

func (n *nesting) op(line int) {
	n.levels[len(n.levels)-1].ops++
	n.depth++
	n.check(line)
}

func (n *nesting) endExpression(top *level) {
	n.depth -= top.ops
	top.ops = 0
	top.item = -1
}

// check stops the scan once the depth passes MaxNesting, and remembers where
// the deep part starts: the attribute (or outermost block) that holds it.
func (n *nesting) check(line int) {
	if n.depth <= MaxNesting || n.tooDeep {
		return
	}
	n.tooDeep = true
	n.scanner.stop = true
	n.deepLine = line
	at := 0 // the level whose current item starts the deep part
	for i, l := range n.levels {
		if l.block && l.ops == 0 {
			continue
		}
		if l.block || i == 0 {
			at = i
		} else {
			at = i - 1
		}
		break
	}
	l := n.levels[at]
	if l.item < 0 { // cannot happen: a level is entered through a token of its item
		l.item, l.itemEnd, l.itemLine = n.lastStart, n.lastStart, n.lastLine
	}
	n.where, n.whereEnd, n.whereLine = l.item, l.itemEnd, l.itemLine
}

// posAt is the hcl position of byte offset in src, on line.
func posAt(src []byte, offset, line int) hcl.Pos {
	lineStart := bytes.LastIndexByte(src[:offset], '\n') + 1
	return hcl.Pos{Line: line, Column: utf8.RuneCount(src[lineStart:offset]) + 1, Byte: offset}
}
