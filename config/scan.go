package config

import (
	"bytes"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// scanner walks the bytes of a file the way hcl's lexer (hclsyntax's
// scan_tokens.rl) does, without keeping the tokens: it calls emit for each
// token that shapes the syntax tree (brackets, quotes, heredocs, template
// sequences, operators, commas, newlines, identifiers and numbers) and counts
// the others. hcl's own lexer keeps every token (about 100 bytes each), so
// running it on a hostile 8 MiB file would cost more memory than parsing a
// real configuration (8 MiB of "(" took it 3.3 GB and 10 s), and no cheap
// bound on a file's tokens is sound; this one keeps nothing but a stack as
// deep as the nesting it has seen. That is why the check does not count over
// hclsyntax.LexConfig's tokens (docs/PERFORMANCE.md, "Configurations at and
// past the limits").
//
// It must agree with hcl's lexer on where strings, heredocs, comments and
// template sequences begin and end, or a bracket inside a string could be
// counted as nesting (or nesting hidden in what it takes for a string):
// FuzzScanMatchesHCL checks it against hclsyntax.LexConfig, in CI too.
type scanner struct {
	src  []byte
	pos  int
	line int
	// emit receives each token that shapes the tree, with the line it starts on.
	emit func(t hclsyntax.TokenType, start, end, line int)
	// others counts the tokens not emitted (string literals, comments, ...).
	others int
	// stop ends the scan early (the caller has seen enough).
	stop bool

	modes     []scanMode
	heredocs  []heredoc
	braces    int
	retBraces []int
}

type scanMode int

const (
	modeMain scanMode = iota
	modeString
	modeHeredoc
)

type heredoc struct {
	marker      []byte
	startOfLine bool
}

func newScanner(src []byte, emit func(t hclsyntax.TokenType, start, end, line int)) *scanner {
	s := &scanner{src: src, line: 1, emit: emit, modes: []scanMode{modeMain}}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) { // hcl skips a UTF-8 byte order mark
		s.pos = 3
	}
	return s
}

func (s *scanner) run() {
	for s.pos < len(s.src) && !s.stop {
		switch s.modes[len(s.modes)-1] {
		case modeMain:
			s.main()
		case modeString:
			s.quoted()
		case modeHeredoc:
			s.heredoc()
		}
	}
}

// token emits a token of n bytes at pos and moves past it.
func (s *scanner) token(t hclsyntax.TokenType, n int) {
	start, line := s.pos, s.line
	s.advance(n)
	s.emit(t, start, s.pos, line)
}

// skip moves past n bytes of a token that is not emitted.
func (s *scanner) skip(n int) {
	s.advance(n)
	s.others++
}

func (s *scanner) advance(n int) {
	s.line += bytes.Count(s.src[s.pos:s.pos+n], []byte("\n"))
	s.pos += n
}

func (s *scanner) at(i int) byte {
	if s.pos+i < len(s.src) {
		return s.src[s.pos+i]
	}
	return 0
}

func (s *scanner) push(m scanMode) { s.modes = append(s.modes, m) }

func (s *scanner) pop() {
	if len(s.modes) > 1 {
		s.modes = s.modes[:len(s.modes)-1]
	}
}

// twoByteTokens are hcl's operators of two or three characters.
var twoByteTokens = map[string]hclsyntax.TokenType{
	"==": hclsyntax.TokenEqualOp, "!=": hclsyntax.TokenNotEqual,
	">=": hclsyntax.TokenGreaterThanEq, "<=": hclsyntax.TokenLessThanEq,
	"&&": hclsyntax.TokenAnd, "||": hclsyntax.TokenOr,
	"::": hclsyntax.TokenDoubleColon, "=>": hclsyntax.TokenFatArrow,
}

// selfTokens are the characters that are a token of their own type.
const selfTokens = "[]().,*/%+-=<>!?:\n&|~^;`'"

func (s *scanner) main() {
	c := s.src[s.pos]
	switch {
	case c == ' ' || c == '\t':
		s.pos++
	case c == '\r' && s.at(1) == '\n':
		s.token(hclsyntax.TokenNewline, 2)
	case c >= '0' && c <= '9':
		s.token(hclsyntax.TokenNumberLit, s.numberLen())
	case c == '#' || c == '/' && s.at(1) == '/':
		end := bytes.IndexByte(s.src[s.pos:], '\n')
		if end < 0 {
			end = len(s.src) - s.pos - 1
		}
		// A one-line comment takes its newline with it, and hcl's parser then
		// reads it as a newline.
		s.token(hclsyntax.TokenComment, end+1)
	case c == '/' && s.at(1) == '*':
		if end := bytes.Index(s.src[s.pos+2:], []byte("*/")); end >= 0 {
			s.skip(end + 4)
		} else {
			s.token(hclsyntax.TokenSlash, 1)
		}
	case c == '"':
		s.token(hclsyntax.TokenOQuote, 1)
		s.push(modeString)
	case c == '<' && s.at(1) == '<' && s.heredocStart():
	case c == '{':
		s.braces++
		s.token(hclsyntax.TokenOBrace, 1)
	case c == '}':
		s.closeBrace(1, hclsyntax.TokenCBrace)
	case c == '~' && s.at(1) == '}':
		s.closeBrace(2, hclsyntax.TokenTemplateSeqEnd)
	case c == '.' && s.at(1) == '.' && s.at(2) == '.':
		s.token(hclsyntax.TokenEllipsis, 3)
	case s.pos+1 < len(s.src) && twoByteTokens[string(s.src[s.pos:s.pos+2])] != 0:
		s.token(twoByteTokens[string(s.src[s.pos:s.pos+2])], 2)
	case bytes.IndexByte([]byte(selfTokens), c) >= 0:
		s.token(hclsyntax.TokenType(c), 1)
	default:
		if n := s.identLen(s.pos); n > 0 {
			s.token(hclsyntax.TokenIdent, n)
			return
		}
		s.token(hclsyntax.TokenInvalid, max(ragelRuneLen(s.src[s.pos:]), 1))
	}
}

// closeBrace is "}" (or "~}"): the end of a template sequence when the brace
// count is back where the sequence opened, otherwise a closing brace.
func (s *scanner) closeBrace(n int, otherwise hclsyntax.TokenType) {
	if k := len(s.retBraces); k > 0 && s.retBraces[k-1] == s.braces {
		s.braces--
		s.retBraces = s.retBraces[:k-1]
		s.token(hclsyntax.TokenTemplateSeqEnd, n)
		s.pop()
		return
	}
	s.braces--
	s.token(otherwise, n)
}

// numberLen is the length of the number at pos: digits, dots and exponents,
// never ending in a dot.
func (s *scanner) numberLen() int {
	i := s.pos + 1
	digit := func(j int) bool { return j < len(s.src) && s.src[j] >= '0' && s.src[j] <= '9' }
	for i < len(s.src) {
		switch c := s.src[i]; {
		case digit(i) || c == '.':
			i++
		case (c == 'e' || c == 'E') && digit(i+1):
			i += 2
		case (c == 'e' || c == 'E') && i+1 < len(s.src) && (s.src[i+1] == '+' || s.src[i+1] == '-') && digit(i+2):
			i += 3
		default:
			goto done
		}
	}
done:
	for s.src[i-1] == '.' {
		i--
	}
	return i - s.pos
}

// identLen is the length of the identifier at i, 0 if none starts there:
// (ID_Start | "_") (ID_Continue | "-")*, with hcl's tables (idtables.go).
func (s *scanner) identLen(i int) int {
	n := 1
	if s.src[i] != '_' {
		n = idMatch(&idStartByLead, s.src[i:])
		if n == 0 {
			return 0
		}
	}
	j := i + n
	for j < len(s.src) {
		if s.src[j] == '-' {
			j++
			continue
		}
		m := idMatch(&idContinueByLead, s.src[j:])
		if m == 0 {
			break
		}
		j += m
	}
	return j - i
}

// heredocStart opens a heredoc at "<<EOT" or "<<-EOT" and the end of the line;
// false when pos holds something else that starts with "<<".
//
// The marker is read as hcl's lexer reads it ('<<' '-'? Ident Newline): an
// identifier by hcl's own tables (identLen), then a newline. Those tables
// take any byte after some lead bytes into a character, a newline included,
// so "<<\xd4" and a newline, then another newline, opens a heredoc whose
// marker holds a newline and never ends; reading only up to the first
// newline, this scanner once took it for two "<" and hid from the nesting
// check what hcl then parsed as code (TestScanMatchesHCL).
func (s *scanner) heredocStart() bool {
	i := s.pos + 2
	if i < len(s.src) && s.src[i] == '-' {
		i++
	}
	if i >= len(s.src) {
		return false
	}
	n := s.identLen(i)
	if n == 0 {
		return false
	}
	end := i + n
	if end < len(s.src) && s.src[end] == '\r' {
		end++
	}
	if end >= len(s.src) || s.src[end] != '\n' {
		return false
	}
	marker := bytes.TrimSuffix(s.src[i:end], []byte("\r"))
	s.token(hclsyntax.TokenOHeredoc, end+1-s.pos)
	s.heredocs = append(s.heredocs, heredoc{marker: marker, startOfLine: true})
	s.push(modeHeredoc)
	return true
}

// templateSequence opens "${" or "%{" (with an optional "~") in a string or
// heredoc, and reads what follows as code until its closing brace.
func (s *scanner) templateSequence(t hclsyntax.TokenType) {
	n := 2
	if s.at(2) == '~' {
		n = 3
	}
	s.braces++
	s.retBraces = append(s.retBraces, s.braces)
	if k := len(s.heredocs); k > 0 {
		s.heredocs[k-1].startOfLine = false
	}
	s.token(t, n)
	s.push(modeMain)
}

// escapeLen is the length of "$${", "%%{" (literal text), or of a "$" or
// "%" that starts no sequence; 0 if a sequence starts at pos.
func (s *scanner) escapeLen() int {
	c := s.src[s.pos]
	switch {
	case s.at(1) == '{':
		return 0
	case s.at(1) == c && s.at(2) == '{':
		if s.at(3) == '~' {
			return 4
		}
		return 3
	}
	return 1
}

// quoted reads inside a "quoted string": literal text, escapes, newlines
// (an error, but the string goes on), template sequences, the closing quote.
func (s *scanner) quoted() {
	c := s.src[s.pos]
	switch {
	case c == '"':
		s.token(hclsyntax.TokenCQuote, 1)
		s.pop()
	case c == '$' || c == '%':
		if n := s.escapeLen(); n > 0 {
			s.skip(n)
		} else if c == '$' {
			s.templateSequence(hclsyntax.TokenTemplateInterp)
		} else {
			s.templateSequence(hclsyntax.TokenTemplateControl)
		}
	case c == '\r' || c == '\n':
		n := 1
		for s.pos+n < len(s.src) && (s.src[s.pos+n] == '\r' || s.src[s.pos+n] == '\n') {
			n++
		}
		s.token(hclsyntax.TokenQuotedNewline, n)
	default:
		// A run of literal text, escapes included: "\" takes the character
		// after it, unless that ends the line.
		i := s.pos
		for i < len(s.src) {
			c := s.src[i]
			if c == '"' || c == '$' || c == '%' || c == '\r' || c == '\n' {
				break
			}
			if c == '\\' {
				if i+1 >= len(s.src) || s.src[i+1] == '\r' || s.src[i+1] == '\n' {
					if i == s.pos {
						i++ // a lone "\" is a token of its own
					}
					break
				}
				_, n := utf8.DecodeRune(s.src[i+1:])
				i += 1 + n
				continue
			}
			i++
		}
		s.skip(i - s.pos)
	}
}

// heredoc reads a heredoc's lines until the one that is its marker alone.
func (s *scanner) heredoc() {
	doc := &s.heredocs[len(s.heredocs)-1]
	c := s.src[s.pos]
	if c == '$' || c == '%' {
		if n := s.escapeLen(); n > 0 {
			doc.startOfLine = false
			s.skip(n)
		} else if c == '$' {
			s.templateSequence(hclsyntax.TokenTemplateInterp)
		} else {
			s.templateSequence(hclsyntax.TokenTemplateControl)
		}
		return
	}
	if c >= utf8.RuneSelf && ragelRuneLen(s.src[s.pos:]) == 0 {
		s.skip(1) // hcl's BadUTF8: a token of its own, which leaves the line's start as it was
		return
	}
	i := s.pos
	for i < len(s.src) {
		if c := s.src[i]; c < utf8.RuneSelf {
			if c == '$' || c == '%' || c == '\r' || c == '\n' {
				break
			}
			i++
			continue
		}
		n := ragelRuneLen(s.src[i:])
		if n == 0 {
			break
		}
		i += n
	}
	eol := 0
	switch {
	case i < len(s.src) && s.src[i] == '\n':
		eol = 1
	case i+1 < len(s.src) && s.src[i] == '\r' && s.src[i+1] == '\n':
		eol = 2
	case i < len(s.src) && s.src[i] == '\r':
		// hcl's lexer has no rule for a lone carriage return in a heredoc:
		// it gives up, and the rest of the file is one invalid token.
		s.skip(len(s.src) - s.pos)
		return
	}
	if eol == 0 { // cut by a sequence, or the end of the file
		if i > s.pos {
			doc.startOfLine = false
			s.skip(i - s.pos)
		}
		return
	}
	if doc.startOfLine && bytes.Equal(bytes.TrimSpace(s.src[s.pos:i]), doc.marker) {
		s.token(hclsyntax.TokenCHeredoc, i-s.pos)
		s.heredocs = s.heredocs[:len(s.heredocs)-1]
		s.pop()
		s.token(hclsyntax.TokenNewline, eol)
		return
	}
	doc.startOfLine = true
	s.skip(i + eol - s.pos)
}

// ragelRuneLen is the length of the character at the start of b as hcl's
// lexer sees it (its AnyUTF8: a lead byte and enough continuation bytes,
// looser than Go's utf8), or 0 for a byte it calls BadUTF8.
func ragelRuneLen(b []byte) int {
	n := 0
	switch c := b[0]; {
	case c < 0x80:
		return 1
	case c >= 0xC0 && c <= 0xDF:
		n = 2
	case c >= 0xE0 && c <= 0xEF:
		n = 3
	case c >= 0xF0 && c <= 0xF7:
		n = 4
	default:
		return 0
	}
	if len(b) < n {
		return 0
	}
	for _, c := range b[1:n] {
		if c < 0x80 || c > 0xBF {
			return 0
		}
	}
	return n
}

//go:generate go run gen_idtables.go

// idSeq is one line of hcl's unicode_derived.rl: n bytes, each in a range.
type idSeq struct {
	n      int
	ranges [4][2]byte
}

// idStartByLead and idContinueByLead index the tables by their first byte.
var idStartByLead, idContinueByLead = byLead(idStartSeqs), byLead(idContinueSeqs)

func byLead(seqs []idSeq) (index [256][]idSeq) {
	for _, s := range seqs {
		for b := int(s.ranges[0][0]); b <= int(s.ranges[0][1]); b++ {
			index[b] = append(index[b], s)
		}
	}
	return index
}

// idMatch is the length of the character of table at b[0:], 0 if none.
// Every sequence of one lead byte has the same length (TestIdentifierTables),
// so the first that matches is the one hcl's lexer takes.
func idMatch(table *[256][]idSeq, b []byte) int {
	for _, s := range table[b[0]] {
		if len(b) < s.n {
			continue
		}
		ok := true
		for i := 1; i < s.n; i++ {
			if b[i] < s.ranges[i][0] || b[i] > s.ranges[i][1] {
				ok = false
				break
			}
		}
		if ok {
			return s.n
		}
	}
	return 0
}
