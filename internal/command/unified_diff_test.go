package command

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiffLayout(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	after := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\nextra\n"
	// What GNU diff -u prints for these two texts (with its headers replaced).
	want := `--- a/x.hcl
+++ b/x.hcl
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -12,3 +12,4 @@
 l
 m
 n
+extra
`
	if got := unifiedDiff("x.hcl", before, after); got != want {
		t.Errorf("unifiedDiff:\n%s\nwant:\n%s", got, want)
	}
}

func TestUnifiedDiffJoinsNearbyChanges(t *testing.T) {
	before := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	after := "1\nTWO\n3\n4\n5\n6\n7\nEIGHT\n9\n"
	got := unifiedDiff("f", before, after)
	if n := strings.Count(got, "@@ -"); n != 1 {
		t.Errorf("changes 6 lines apart should share one hunk, got %d hunks:\n%s", n, got)
	}
	if !strings.Contains(got, "@@ -1,9 +1,9 @@\n") {
		t.Errorf("hunk header wrong:\n%s", got)
	}
}

func TestUnifiedDiffMissingFinalNewline(t *testing.T) {
	got := unifiedDiff("f", "a = 1", "a = 1\n")
	want := "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a = 1\n\\ No newline at end of file\n+a = 1\n"
	if got != want {
		t.Errorf("unifiedDiff:\n%q\nwant:\n%q", got, want)
	}
}

func TestUnifiedDiffEqualIsEmpty(t *testing.T) {
	if got := unifiedDiff("f", "same\n", "same\n"); got != "" {
		t.Errorf("equal texts gave a diff: %q", got)
	}
}

// TestUnifiedDiffApplies checks that applying each diff to the old text gives
// the new one, over cases with changes at the start, the end, far apart, near
// each other, and files that become empty or start empty.
func TestUnifiedDiffApplies(t *testing.T) {
	lines := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i) + "\n")
		}
		return b.String()
	}
	base := lines(40, func(i int) string { return fmt.Sprint("line ", i) })
	cases := map[string][2]string{
		"first line":        {base, "new\n" + base[strings.Index(base, "\n")+1:]},
		"last line added":   {base, base + "tail\n"},
		"far apart":         {base, strings.Replace(strings.Replace(base, "line 2\n", "two\n", 1), "line 30\n", "thirty\n", 1)},
		"removed block":     {base, strings.Replace(base, "line 10\nline 11\nline 12\n", "", 1)},
		"every other line":  {base, lines(40, func(i int) string { return fmt.Sprint("line ", i+i%2*100) })},
		"to empty":          {base, ""},
		"from empty":        {"", base},
		"no final newline":  {"a\nb", "a\nb\n"},
		"indent everything": {base, lines(40, func(i int) string { return fmt.Sprint("  line ", i) })},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			d := unifiedDiff("f", c[0], c[1])
			got, err := applyUnified(c[0], d)
			if err != nil {
				t.Fatalf("%v\n%s", err, d)
			}
			if got != c[1] {
				t.Errorf("applying the diff gave:\n%q\nwant:\n%q\ndiff:\n%s", got, c[1], d)
			}
		})
	}
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// applyUnified applies a unified diff to src strictly: context and removed
// lines must match, and each hunk's counts must match its lines.
func applyUnified(src, diff string) (string, error) {
	old := strings.SplitAfter(src, "\n")
	if old[len(old)-1] == "" {
		old = old[:len(old)-1]
	}
	var out []string
	next := 0 // index in old of the next line not yet copied
	dl := strings.SplitAfter(diff, "\n")
	for i := 0; i < len(dl); i++ {
		line := strings.TrimSuffix(dl[i], "\n")
		m := hunkHeader.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		count := func(s string) int {
			if s == "" {
				return 1
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		oldStart, _ := strconv.Atoi(m[1])
		oldCount, newCount := count(m[2]), count(m[4])
		if oldCount == 0 {
			oldStart++ // an empty range names the line before
		}
		for next < oldStart-1 {
			out = append(out, old[next])
			next++
		}
		seenOld, seenNew := 0, 0
		for i+1 < len(dl) && seenOld+seenNew < oldCount+newCount {
			i++
			body := dl[i]
			if body == "" {
				return "", fmt.Errorf("hunk %q ends early", line)
			}
			text := body[1:]
			if i+1 < len(dl) && strings.HasPrefix(dl[i+1], `\ No newline`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch body[0] {
			case ' ', '-':
				if next >= len(old) || old[next] != text {
					return "", fmt.Errorf("line %d: want %q, the file has %q", next+1, text, old[min(next, len(old)-1)])
				}
				next++
				seenOld++
				if body[0] == ' ' {
					out = append(out, text)
					seenNew++
				}
			case '+':
				out = append(out, text)
				seenNew++
			default:
				return "", fmt.Errorf("unexpected line in hunk: %q", body)
			}
		}
		if seenOld != oldCount || seenNew != newCount {
			return "", fmt.Errorf("hunk %q has %d old and %d new lines", line, seenOld, seenNew)
		}
	}
	out = append(out, old[next:]...)
	return strings.Join(out, ""), nil
}
