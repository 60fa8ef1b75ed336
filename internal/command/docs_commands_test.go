package command

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// The README and the CI workflow say what the code does: every neonform
// command they show is one neonform has, with flags it takes. (The CLI
// scenarios run the commands themselves; this catches a flag renamed in
// the code but not in the prose.)
func TestDocumentedCommandsExist(t *testing.T) {
	cmds := commands()
	checked := 0
	for _, file := range []string{"../../README.md", "../../examples/ci/neonform.yml"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "Error:") {
				continue // neonform's output, quoted
			}
			for _, words := range documentedCommands(line) {
				cmd := findCLICommand(cmds, words)
				if cmd == nil {
					continue // prose ("neonform reads ..."), or output ("neonform plan: 2 projects")
				}
				checked++
				for _, w := range words {
					if w == "--" {
						break // the rest are arguments
					}
					if !strings.HasPrefix(w, "-") || w == "-" || deliberate[w] {
						continue
					}
					name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
					if !hasFlag(cmd, name) {
						t.Errorf("%s:%d: neonform %s has no flag %s: %s", file, n+1, cmd.Name, w, strings.TrimSpace(line))
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked %d commands; the README and the workflow show more: is the extraction broken?", checked)
	}
}

// deliberate are the mistakes the README makes on purpose, to show the answer.
var deliberate = map[string]bool{"-ot": true}

var neonformWords = regexp.MustCompile(`(?:^|[\s(\x60'"$:])neonform((?: +[^\s|>;&#\x60'"]+)*)`)

// documentedCommands are the words after each "neonform" in a line, up to a
// shell operator, with a synopsis' brackets and ellipses dropped.
func documentedCommands(line string) [][]string {
	var out [][]string
	for _, m := range neonformWords.FindAllStringSubmatch(line, -1) {
		var words []string
		for _, w := range strings.Fields(m[1]) {
			w = strings.Trim(w, "[]().,")
			w = strings.TrimSuffix(w, "...")
			if w != "" {
				words = append(words, w)
			}
		}
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// findCLICommand is the command the words name: "plan", "state list".
func findCLICommand(cmds []*cli.Command, words []string) *cli.Command {
	for _, c := range cmds {
		if !c.HasName(words[0]) {
			continue
		}
		if len(c.Subcommands) > 0 && len(words) > 1 {
			if sub := findCLICommand(c.Subcommands, words[1:]); sub != nil {
				return sub
			}
		}
		return c
	}
	return nil
}

func hasFlag(c *cli.Command, name string) bool {
	if name == "help" || name == "h" {
		return true
	}
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// The workflow installs neonform with go install ...@$NEONFORM_VERSION: the
// pin must be a release tag (README, "Getting neonform"), never a branch
// that moves under a pipeline or a version Go cannot resolve.
func TestWorkflowPinsARelease(t *testing.T) {
	b, err := os.ReadFile("../../examples/ci/neonform.yml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s+NEONFORM_VERSION: (\S+)$`).FindSubmatch(b)
	if m == nil || !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).Match(m[1]) {
		t.Fatalf("NEONFORM_VERSION is %q, want a release tag vMAJOR.MINOR.PATCH", m)
	}
	if n := strings.Count(string(b), `go install "github.com/neonform/neonform@${NEONFORM_VERSION}"`); n != 3 {
		t.Errorf("%d jobs install the pinned neonform, want all 3 that run it", n)
	}
}
