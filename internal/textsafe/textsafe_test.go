package textsafe

import (
	"strings"
	"testing"
)

// hostile is a name built to break every view: it erases a line and moves
// the cursor up, returns to the line's start, starts a new line, hides the
// rest of a comment, closes a <details>, ends a table cell, opens a code
// span, reverses the text after it, and ends a C string.
const hostile = "ok\x1b[2K\x1b[1A\rApply complete\n<!-- x --> </details> | `code` \u202egnp.exe\x00 \u009b2J \xff [a](https://evil.example) ![i](x) www.evil.example"

func TestTerminalShowsEveryControlEscaped(t *testing.T) {
	got := Terminal(hostile)
	for _, raw := range []string{"\x1b", "\r", "\n", "\u202e", "\x00", "\u009b", "\xff"} {
		if strings.Contains(got, raw) {
			t.Errorf("Terminal left %q raw in %q", raw, got)
		}
	}
	for _, shown := range []string{`\x1b[2K`, `\x1b[1A`, `\rApply`, `\n<!--`, `\u202egnp`, `\x00`, `\u009b2J`, `\xff`} {
		if !strings.Contains(got, shown) {
			t.Errorf("Terminal(%q) = %q: no %s", hostile, got, shown)
		}
	}
	if Terminal(got) != got {
		t.Errorf("Terminal escapes its own output again: %q", Terminal(got))
	}
}

func TestTerminalKeepsOrdinaryText(t *testing.T) {
	for _, s := range []string{"shop.main.primary", `shop.previews["preview/pr-12"].primary`, "Zürich 東京 🧑‍💻", `back\slash`, "", "a\u200db"} {
		if got := Terminal(s); got != s {
			t.Errorf("Terminal(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestTerminalTextKeepsLinesAndTabs(t *testing.T) {
	got := TerminalText("Failed:\n\tstep 1: \x1b[2Kgone\r")
	if want := "Failed:\n\tstep 1: \\x1b[2Kgone\\r"; got != want {
		t.Errorf("TerminalText = %q, want %q", got, want)
	}
}

func TestMarkdownLeavesNoMarkup(t *testing.T) {
	got := Markdown(hostile)
	for _, raw := range []string{"\x1b", "\r", "\n", "\u202e", "\x00", "<", ">", "|", "`", "](", "![i](", "https:", "www.", "*", "_"} {
		if strings.Contains(got, raw) {
			t.Errorf("Markdown left %q raw in %q", raw, got)
		}
	}
	if !strings.Contains(got, "&lt;!-- x --&gt;") || !strings.Contains(got, "&lt;/details&gt;") {
		t.Errorf("Markdown(%q) = %q: the comment and the tag are not shown as text", hostile, got)
	}
	for in, want := range map[string]string{
		"- item": "&#45; item", "# title": "&#35; title", "12. x": "12&#46; x", "=": "&#61;",
		"ep-cool-darkness-123456": "ep-cool-darkness-123456", `{ work_mem = "64MB" }`: `{ work_mem = "64MB" }`,
		"a&lt;b": "a&amp;lt;b", `shop.previews["preview/pr-12"].primary`: `shop.previews["preview/pr-12"].primary`,
		"[x](y) [x][y] ![i](z)":       "[x&#93;(y) [x&#93;[y] ![i&#93;(z)",
		"WWW.a.b, www.c and HTTP://d": "WWW&#46;a.b, www&#46;c and HTTP&#58;//d",
		// Mentions, a team, an email, an issue link by GH-: no @ and no GH-
		// left for GitHub to link (or notify).
		"x @admin, @org/team, ada@example.com": "x &#64;admin, &#64;org/team, ada&#64;example.com",
		"fix GH-12 and gh-3":                   "fix GH&#45;12 and gh&#45;3",
	} {
		if got := Markdown(in); got != want {
			t.Errorf("Markdown(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownCodeCannotBeClosedFromInside(t *testing.T) {
	for in, want := range map[string]string{
		"shop.main.primary":                "`shop.main.primary`",
		`shop.previews["preview/pr-12"].x`: "`shop.previews[\"preview/pr-12\"].x`",
		"a`b":                              "<code>a&#96;b</code>",
		"a\n<!--\x1b[2K":                   "<code>a&#92;n&lt;!--&#92;x1b[2K</code>",
		"x|y</code>":                       "<code>x&#124;y&lt;/code&gt;</code>",
	} {
		if got := MarkdownCode(in); got != want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", in, got, want)
		}
	}
}
