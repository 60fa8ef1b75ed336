package textsafe

import (
	"strconv"
	"strings"
)

// markdownEntities are the characters that GitHub-flavoured Markdown or HTML
// would read as markup in a line, written as character references instead:
// they show as themselves in Markdown text, in a table cell and in an HTML
// block (a <summary> line), where backslash escapes do not work. < and >
// cover comments, tags and <details>; | a table cell; ` code; * _ ~
// emphasis; ] links and images; \ escapes; # headings and issue links; @
// mentions (a name "x @admin" would ping whoever its creator chose, when the
// comment is posted), a team's @org/team and a user@sha commit link; $
// math; & the references themselves. Markdown keeps an _ inside a word
// (work_mem) and a ] that no ( or [ follows (a key's brackets), which are
// no markup.
var markdownEntities = map[byte]string{
	'&': "&amp;", '<': "&lt;", '>': "&gt;", '|': "&#124;", '`': "&#96;", '\\': "&#92;",
	'*': "&#42;", '_': "&#95;", '~': "&#126;", ']': "&#93;", '#': "&#35;", '$': "&#36;",
	'@': "&#64;",
}

// Markdown is s as text in a pull-request comment: in a line, a table cell
// or a <summary>. It cannot end a cell, open a comment, a tag or a <details>
// block, start a heading, a quote or a list, make a link, an image or a code
// span, or start a new line: control characters show escaped as on a
// terminal (a newline as \n), the characters of markup as HTML character
// references, and a www. or :// that GitHub would make a link is broken by
// one, as is GitHub's GH-12 issue link.
func Markdown(s string) string {
	s = Terminal(s)
	if strings.ContainsAny(s, markdownSpecials) {
		s = references(s)
	}
	s = breakLink(s, "www.", 3)
	s = breakLink(s, "://", 0)
	s = breakLink(s, "gh-", 2)
	return lineStart(s)
}

// markdownSpecials are the keys of markdownEntities, for a quick look
// whether s has any.
var markdownSpecials = func() string {
	var b []byte
	for c := range markdownEntities {
		b = append(b, c)
	}
	return string(b)
}()

// references writes the characters of markup in s as references.
func references(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		ref, markup := markdownEntities[c]
		switch {
		case c == '_' && i > 0 && i+1 < len(s) && wordByte(s[i-1]) && wordByte(s[i+1]):
			markup = false // inside a word: no emphasis
		case c == ']' && (i+1 == len(s) || s[i+1] != '(' && s[i+1] != '['):
			markup = false // a link or an image needs ]( or ][
		}
		if markup {
			b.WriteString(ref)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lineStart writes as a reference what would start a list or a setext
// heading if s began a line, which the views never let it, but a value
// must not depend on that.
func lineStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '-', '+', '=':
		return "&#" + strconv.Itoa(int(s[0])) + ";" + s[1:]
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return s[:digits] + "&#" + strconv.Itoa(int(s[digits])) + ";" + s[digits+1:]
	}
	return s
}

// breakLink writes byte at of every match of pattern (lower case) as a
// reference: GitHub links a bare www.example.com or https://example.com,
// and a name must not.
func breakLink(s, pattern string, at int) string {
	// ASCII only, so that an index in lower is one in s.
	lower := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
	if !strings.Contains(lower, pattern) {
		return s
	}
	var b strings.Builder
	from := 0
	for {
		i := strings.Index(lower[from:], pattern)
		if i < 0 {
			b.WriteString(s[from:])
			return b.String()
		}
		cut := from + i + at
		b.WriteString(s[from:cut])
		b.WriteString("&#" + strconv.Itoa(int(s[cut])) + ";")
		from = cut + 1
	}
}

// MarkdownCode is s as code in a pull-request comment, in a line or a
// table cell: a code span (`shop.main.primary`) when nothing in s could
// end one or be read as markup around it, else a <code> element holding s
// as Markdown writes text, which nothing in s can end.
func MarkdownCode(s string) string {
	if Terminal(s) == s && !strings.ContainsAny(s, "`|<>") {
		return "`" + s + "`"
	}
	return "<code>" + Markdown(s) + "</code>"
}
