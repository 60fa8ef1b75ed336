// Package textsafe shows text neonform did not write (names, ids, branch
// names, hosts, error messages from the service; addresses and values from
// a state, plan or configuration file) as data in a view: never as terminal
// control or as Markdown and HTML markup (docs/plans.md, "Reading a plan").
//
// One function per view: Terminal (and TerminalText for a block of several
// lines) for terminals and logs, Markdown and MarkdownCode for a
// pull-request comment. JSON needs none: its encoder escapes. The views call
// these where a value meets their own text; the model and the files keep the
// value as it is.
//
// Terminal and TerminalText leave a backslash as it is, so they are
// idempotent: an escape shown once is not escaped again when an error that
// quotes it is printed.
package textsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terminal is s as one field of a line on a terminal or in a log: control
// characters (ESC, CR, newline, tab, NUL, DEL, the C1 controls), the
// characters that reorder or hide text (bidi overrides such as U+202E,
// zero-width spaces) and bytes that are not UTF-8 are shown as Go escapes
// (\x1b, \n, \u202e, \xff); ordinary Unicode is left readable.
func Terminal(s string) string { return escape(s, false) }

// TerminalText is s as a block of lines neonform composed (an error message,
// a report) that may quote a value: the same as Terminal, but newlines and
// tabs are kept.
func TerminalText(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	i := firstUnsafe(s, lines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case unsafeRune(r):
			b.WriteString(quoted(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstUnsafe is the index of the first byte of s that must be escaped, or -1.
func firstUnsafe(s string, lines bool) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
		if lines && (r == '\n' || r == '\t') {
			continue
		}
		if unsafeRune(r) {
			return i
		}
	}
	return -1
}

// unsafeRune reports whether r controls a terminal or changes how the text
// around it reads: C0, DEL and C1 controls, line and paragraph separators,
// and the format characters (bidi overrides and isolates, zero-width
// spaces), except the joiners that emoji and some scripts are written with.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f, r == '\u2028', r == '\u2029':
		return true
	case r == '\u200c' || r == '\u200d': // ZWNJ, ZWJ
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// quoted is r as Go writes it in a string literal.
func quoted(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}
