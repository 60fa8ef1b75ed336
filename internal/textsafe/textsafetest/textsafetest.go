// Package textsafetest is a name built to break a view, and the checks
// that a view showed it as data: the tests of every view that quotes the
// service's or a file's text feed it Name and call Terminal or Markdown on
// what the view wrote.
package textsafetest

import (
	"regexp"
	"strings"
	"testing"
)

// Name erases the line and moves the cursor up, returns to the line's
// start, starts a line of its own that passes for a plan's summary, opens
// an HTML comment that would hide the rest of a pull-request comment,
// closes a <details>, ends a table cell, opens a code span, reverses the
// text after it, ends a C string and makes a link. As an error message it
// does the same.
const Name = "x\x1b[2K\x1b[1A\rPlan: 0\n<!--h-->\n</details>|`t`\u202egnp\x00[l](https://e.x)"

// terminalRaw are the parts of Name that no view may write as they are.
var terminalRaw = []string{"\x1b", "\r", "\x00", "\u202e", "\nPlan: 0", "\n<!--"}

// markdownRaw are the parts of Name a comment may not hold as they are,
// besides terminalRaw: markup.
var markdownRaw = []string{"<!--", "</details>|", "|`t`", "`t`", "[l](", "https://"}

// ownControls are the terminal controls the views write themselves: colours
// and the status line's "back to the start and clear it".
var ownControls = regexp.MustCompile(`\r\x1b\[K|\x1b\[[0-9;]*m`)

// Terminal fails t when out, what view wrote for a terminal or a log, holds
// any part of Name as it is, or does not show Name escaped at all (then the
// test did not give the view the name it meant to).
func Terminal(t testing.TB, view, out string) {
	t.Helper()
	check(t, view, ownControls.ReplaceAllString(out, ""), terminalRaw, `x\x1b[2K\x1b[1A\rPlan: 0\n<!--h-->\n</details>|`+"`t`"+`\u202egnp\x00`)
}

// Markdown is Terminal for a pull-request comment: no markup of Name either.
func Markdown(t testing.TB, view, out string) {
	t.Helper()
	check(t, view, out, append(append([]string(nil), terminalRaw...), markdownRaw...), `x&#92;x1b[2K&#92;x1b[1A&#92;rPlan: 0&#92;n&lt;!--h--&gt;`)
}

func check(t testing.TB, view, out string, raw []string, shown string) {
	t.Helper()
	for _, r := range raw {
		if strings.Contains(out, r) {
			t.Errorf("%s: %q is written as it is:\n%s", view, r, out)
		}
	}
	if !strings.Contains(out, shown) {
		t.Errorf("%s: the name is not shown escaped (%s):\n%s", view, shown, out)
	}
}
