package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The README is a front door to docs/: a link that leads nowhere (a file
// moved, a heading renamed) strands the reader. Every relative link in
// README.md and docs/*.md must name a file that exists and, with #anchor, a
// heading of that file as GitHub names its anchors.
func TestDocumentLinksResolve(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range append([]string{"README.md"}, docs...) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(b)) {
			checked++
			if problem := linkProblem(file, l.target); problem != "" {
				t.Errorf("%s:%d: link %s: %s", file, l.line, l.target, problem)
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d links; README.md and docs/ have more: is the extraction broken?", checked)
	}
}

// A broken file, a broken anchor and a link that only looks broken inside
// code: the check must tell them apart, or the test above passes for nothing.
func TestDocumentLinksCheckCatchesBrokenLinks(t *testing.T) {
	dir := t.TempDir()
	page := "# Title\n\n## Planning a part: -target\n\n## Twice\n\n## Twice\n\n```\n## Not a heading\n```\n"
	if err := os.WriteFile(filepath.Join(dir, "page.md"), []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	from := filepath.Join(dir, "page.md")
	for target, want := range map[string]string{
		"page.md":                          "",
		"page.md#planning-a-part--target":  "",
		"page.md#twice-1":                  "",
		"#title":                           "",
		"#nothing-here":                    "no heading",
		"page.md#not-a-heading":            "no heading",
		"page.md#planning-a-part-target":   "no heading",
		"missing.md":                       "no such file",
		"missing.md#title":                 "no such file",
		"page.md#twice-2":                  "no heading",
		"https://example.com/missing.md#x": "",
	} {
		got := linkProblem(from, target)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("linkProblem(%q) = %q, want %q", target, got, want)
		}
	}
	links := markdownLinks("See [a](a.md) and [`b`](b.md#x).\n\n```\n[c](c.md)\n```\n\nNot `[d](d.md)`, but ![e](e.png).\n")
	var got []string
	for _, l := range links {
		got = append(got, fmt.Sprintf("%s@%d", l.target, l.line))
	}
	if want := "a.md@1 b.md#x@1 e.png@7"; strings.Join(got, " ") != want {
		t.Errorf("markdownLinks found %v, want %s", got, want)
	}
}

type markdownLink struct {
	target string
	line   int
}

var (
	linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan    = regexp.MustCompile("`[^`]*`")
)

// markdownLinks are the link targets of a Markdown text, outside code blocks
// and code spans (a link's text may be a code span: [`x`](x.md)).
func markdownLinks(md string) []markdownLink {
	var out []markdownLink
	fenced := false
	for n, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkPattern.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			out = append(out, markdownLink{target: m[1], line: n + 1})
		}
	}
	return out
}

// linkProblem says what is wrong with a link from the Markdown file from, or
// "" when it resolves. Links to other sites are not followed.
func linkProblem(from, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, anchor, hasAnchor := strings.Cut(target, "#")
	file := from
	if path != "" {
		file = filepath.Join(filepath.Dir(from), filepath.FromSlash(path))
	}
	if _, err := os.Stat(file); err != nil {
		return fmt.Sprintf("no such file %s", file)
	}
	if !hasAnchor {
		return ""
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	for _, slug := range headingSlugs(string(b)) {
		if slug == anchor {
			return ""
		}
	}
	return fmt.Sprintf("no heading of %s has the anchor #%s", file, anchor)
}

// headingSlugs are the anchors GitHub gives the headings of a Markdown text:
// lower case, punctuation dropped (but - and _), spaces made dashes, and -1,
// -2 added to a repeated one.
func headingSlugs(md string) []string {
	var out []string
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		text, ok := strings.CutPrefix(line, "#")
		if fenced || !ok {
			continue
		}
		text = strings.TrimLeft(text, "#")
		if !strings.HasPrefix(text, " ") {
			continue
		}
		slug := githubSlug(strings.TrimSpace(text))
		if n := seen[slug]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", slug, n))
		} else {
			out = append(out, slug)
		}
		seen[slug]++
	}
	return out
}

func githubSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
