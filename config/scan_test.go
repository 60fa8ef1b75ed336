package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// lexed is one token: its type, where it starts and ends, and its line.
type lexed struct {
	t                hclsyntax.TokenType
	start, end, line int
}

// shapeTokens is what the nesting count reads of a file, as "type@byte:line"
// strings: every token the scanner emits but identifiers, numbers, invalid
// characters and minus signs (identifiers are split by Unicode tables that
// differ between Go and hcl; a minus sign inside an identifier only makes the
// count higher), with one-line comments as the newlines hcl's parser takes
// them for, and the word after "%{".
func shapeTokens(tokens []lexed, src []byte) []string {
	var out []string
	for i, tok := range tokens {
		t := tok.t
		switch t {
		case hclsyntax.TokenIdent:
			if i > 0 && tokens[i-1].t == hclsyntax.TokenTemplateControl {
				out = append(out, fmt.Sprintf("%%{%s@%d", src[tok.start:tok.end], tok.start))
			}
			continue
		case hclsyntax.TokenNumberLit, hclsyntax.TokenInvalid, hclsyntax.TokenBadUTF8, hclsyntax.TokenMinus,
			hclsyntax.TokenQuotedLit, hclsyntax.TokenStringLit, hclsyntax.TokenEOF:
			continue
		case hclsyntax.TokenComment:
			if !bytes.HasSuffix(src[tok.start:tok.end], []byte("\n")) {
				continue
			}
			t = hclsyntax.TokenNewline
		}
		if utf8.Valid(src) {
			out = append(out, fmt.Sprintf("%s@%d:%d", t, tok.start, tok.line))
		} else {
			// hcl counts no line for a newline its tables take into an
			// identifier after a broken UTF-8 byte: lines only name places.
			out = append(out, fmt.Sprintf("%s@%d", t, tok.start))
		}
	}
	return out
}

func scanWithHCL(src []byte) []string {
	tokens, _ := hclsyntax.LexConfig(src, "f.hcl", hcl.InitialPos)
	var out []lexed
	for _, t := range tokens {
		out = append(out, lexed{t.Type, t.Range.Start.Byte, t.Range.End.Byte, t.Range.Start.Line})
	}
	return shapeTokens(out, src)
}

func scanWithOurs(src []byte) []string {
	var out []lexed
	newScanner(src, func(t hclsyntax.TokenType, start, end, line int) {
		out = append(out, lexed{t, start, end, line})
	}).run()
	return shapeTokens(out, src)
}

// trickyLexing are inputs where a scanner that knew less of hcl's lexer
// would lose track of what is code and what is text.
var trickyLexing = []string{
	"a = \"(((\" + (1)\n",
	"a = \"${\"${\"${1}\"}\"}\"\n",
	"a = \"$${ ((( }\" + \"%%{ [[[ }\"\n",
	"a = \"\\\"(((\\\\\" + [1]\n",
	"a = <<EOT\n(((\n  EOT\n",
	"a = <<-EOT\n  ${ [ for x in y : x ] }\n  EOT\nb = 1\n",
	"a = <<EOT\n${x}EOT\nEOT\n",
	"a = <<EOT\n\xffEOT\n(((\n",
	"a = <<EOT\r(((\nEOT\n",
	"a = <<EOT \n(((\nEOT\n",
	"a = <<EOT\nx$EOT\nEOT\n",
	"a = \"%{ if x }%{ for y in z }${y}%{ endfor }%{ endif }\"\n",
	"a = 1 # ((( \n b = 2 // [[[\n c = /* ((( */ 3 /* never closed ((\n",
	"a = { b = \"}\" }\nc = \"${ {d = 1} }\"\n",
	"a = \"${ x ~}\" ~} }\n",
	"a = x[0][y][z].b.*.c[*]\n",
	"a = 1e5 + 1.5e-3 + 1.. + 2.x\n",
	"a = \"line\nbreak ((( \"\n",
	"\xef\xbb\xbfa = (1)\n",
	"a = <<ÉOT\n(((\nÉOT\n",
	"a = \"\\\n\" + (1)\n",
	"a = \xc8\"(((\n", // hcl's tables take any byte after 0xC8 into an identifier
	"\"\"\xc8!00",
	"a = <<\xd4\n\n#${(((1)))}\n",        // the marker is "\xd4\n": a heredoc that never ends
	"a = <<a\xd4\nb\r\n\"${(((1)))}\"\n", // the marker runs on to the next line
	"a = <<\xd4\n#${(((1)))}\n",          // no newline after the marker: no heredoc
}

func TestScanMatchesHCL(t *testing.T) {
	for _, src := range trickyLexing {
		want, got := scanWithHCL([]byte(src)), scanWithOurs([]byte(src))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q:\nhcl:  %v\nours: %v", src, want, got)
		}
	}
}

// FuzzScanMatchesHCL: on any input, the scanner that counts nesting sees the
// brackets, quotes, heredocs, template sequences, operators and newlines that
// hcl's own lexer sees, at the same places. If it did not, a file could hide
// nesting from the check in what the scanner takes for a string.
//
//	go test ./config/ -run '^$' -fuzz FuzzScanMatchesHCL -fuzztime 1m
func FuzzScanMatchesHCL(f *testing.F) {
	for _, src := range trickyLexing {
		f.Add([]byte(src))
	}
	paths, _ := filepath.Glob("../testdata/config/*/*.hcl")
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, got := scanWithHCL(src), scanWithOurs(src)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q:\nhcl:  %v\nours: %v", src, want, got)
		}
	})
}

// TestIdentifierTables: the scanner takes the first sequence of hcl's tables
// that matches, which is right only while every sequence of one lead byte
// has the same length (as UTF-8 has).
func TestIdentifierTables(t *testing.T) {
	for name, table := range map[string][]idSeq{"ID_Start": idStartSeqs, "ID_Continue": idContinueSeqs} {
		length := map[int]int{}
		for _, seq := range table {
			for b := int(seq.ranges[0][0]); b <= int(seq.ranges[0][1]); b++ {
				if n, ok := length[b]; ok && n != seq.n {
					t.Errorf("%s: lead byte %#x starts sequences of %d and %d bytes", name, b, n, seq.n)
				}
				length[b] = seq.n
			}
		}
	}
}
