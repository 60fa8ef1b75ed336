package command

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSuggested runs a command that neonform suggested, exactly as printed,
// the way a person pastes it:
//
//	suggested stdout|stderr [TEXT]
//
// finds, in the last command's stdout or stderr, the first neonform command
// it suggests that contains TEXT (in backticks, after "with: ", or alone on
// a line), splits it as a POSIX shell would, and runs it. Its output is
// then the last command's, for the checks that follow; "! suggested" expects
// it to fail.
//
//	suggested -into FILE stdout|stderr [TEXT]
//
// pastes a block neonform suggested instead: the first one that contains
// TEXT (its lines as printed, from "moved {" or "removed {" to the "}" under
// it, without the indentation of the output around them) is added at the end
// of FILE, as a person pastes it into a configuration file.
func cmdSuggested(ts *testscript.TestScript, neg bool, args []string) {
	into := ""
	if len(args) > 2 && args[0] == "-into" {
		into, args = args[1], args[2:]
	}
	if len(args) < 1 || len(args) > 2 || (args[0] != "stdout" && args[0] != "stderr") || (neg && into != "") {
		ts.Fatalf("usage: [!] suggested stdout|stderr [TEXT], or suggested -into FILE stdout|stderr [TEXT]")
	}
	out := ts.ReadFile(args[0])
	want := ""
	if len(args) == 2 {
		want = args[1]
	}
	what, find := "neonform command", suggestedCommands
	if into != "" {
		what, find = "block", suggestedBlocks
	}
	var found string
	for _, c := range find(out) {
		if strings.Contains(c, want) {
			found = c
			break
		}
	}
	if found == "" {
		ts.Fatalf("no %s containing %q is suggested in %s:\n%s", what, want, args[0], out)
	}
	if into != "" {
		pasteInto(ts, into, found)
		return
	}
	words, err := shellSplit(found)
	ts.Check(err)
	ts.Logf("pasting: %s", found)
	err = ts.Exec(words[0], words[1:]...)
	if (err != nil) != neg {
		if err != nil {
			ts.Fatalf("the suggested command failed: %s: %v", found, err)
		}
		ts.Fatalf("the suggested command succeeded, want it to fail: %s", found)
	}
}

// pasteInto adds a block at the end of a file, after a blank line.
func pasteInto(ts *testscript.TestScript, file, block string) {
	ts.Logf("pasting into %s:\n%s", file, block)
	old := ""
	if _, err := os.Stat(ts.MkAbs(file)); err == nil {
		old = ts.ReadFile(file) + "\n"
	}
	ts.Check(os.WriteFile(ts.MkAbs(file), []byte(old+block), 0o644))
}

// blockStart is the first line of a block neonform suggests.
var blockStart = regexp.MustCompile(`^(\s*)(moved|removed) \{$`)

// suggestedBlocks are the blocks text suggests, in order, each without the
// indentation of its first line.
func suggestedBlocks(text string) []string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		m := blockStart.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent := m[1]
		var b strings.Builder
		for j := i; j < len(lines); j++ {
			b.WriteString(strings.TrimPrefix(lines[j], indent) + "\n")
			if lines[j] == indent+"}" {
				out = append(out, b.String())
				i = j
				break
			}
		}
	}
	return out
}

var (
	backticked = regexp.MustCompile("`(neonform [^`\n]*)`")
	afterWith  = regexp.MustCompile(`with: (neonform [^\n]*)`)
	// A line that is a command alone; not a heading of neonform's output
	// ("neonform plan: 2 projects", "neonform will:").
	ownLine = regexp.MustCompile(`(?m)^\s*(neonform [a-z-]+(?: [^\n]*)?)$`)
)

// suggestedCommands are the neonform commands text suggests, in the order
// they appear.
func suggestedCommands(text string) []string {
	type found struct {
		at  int
		cmd string
	}
	var all []found
	for _, re := range []*regexp.Regexp{backticked, afterWith, ownLine} {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			all = append(all, found{m[2], strings.TrimSpace(text[m[2]:m[3]])})
		}
	}
	var out []string
	for len(all) > 0 {
		first := 0
		for i := range all {
			if all[i].at < all[first].at {
				first = i
			}
		}
		out = append(out, all[first].cmd)
		all = append(all[:first], all[first+1:]...)
	}
	return out
}

// shellSplit splits a command line into words as a POSIX shell does, for
// what neonform writes: plain words, single-quoted ones, and a backslash
// before a character that stands for itself (a quote inside a quoted word
// closes it, adds an escaped quote, and opens it again).
func shellSplit(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quoted, escaped := false, false, false
	for _, r := range line {
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == '\\':
			escaped, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted || escaped {
		return nil, fmt.Errorf("cannot split as a shell would (an unclosed quote or escape): %s", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
