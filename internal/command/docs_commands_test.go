package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// repoRoot is the repository's top, where README.md, docs/ and examples/ are.
const repoRoot = "../.."

// The README, the docs and the CI workflows say what the code does: every
// neonform command they show is one neonform has, with flags it takes. (The
// CLI scenarios run the commands themselves; this catches a flag renamed in
// the code but not in the prose.) docs/commands.md, the command reference,
// shows every command.
func TestDocumentedCommandsExist(t *testing.T) {
	cmds := commands()
	checked := 0
	perFile := map[string]int{}
	inReference := map[*cli.Command]bool{}
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs/*.md"))
	if err != nil {
		t.Fatal(err)
	}
	workflows, err := filepath.Glob(filepath.Join(repoRoot, "examples/ci/*.yml"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, workflows...)
	for i := range docs {
		docs[i], _ = filepath.Rel(repoRoot, docs[i])
	}
	for _, file := range append([]string{"README.md"}, docs...) {
		b, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "Error:") || strings.HasPrefix(trimmed, "Sandbox:") {
				continue // neonform's output, quoted
			}
			for _, words := range documentedCommands(line) {
				cmd := findCLICommand(cmds, words)
				if cmd == nil {
					continue // prose ("neonform reads ..."), or output ("neonform plan: 2 projects")
				}
				checked++
				perFile[file]++
				if file == "docs/commands.md" {
					inReference[cmd] = true
				}
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
	// The floor: today the README shows about 20 commands, the docs about 120
	// and the workflow 7. Far fewer means the extraction broke, or a file
	// stopped being read.
	if checked < 120 || perFile["README.md"] < 10 || perFile["examples/ci/neonform.yml"] < 5 {
		t.Errorf("checked %d commands (%v); the README, the docs and the workflow show more: is the extraction broken?", checked, perFile)
	}
	for _, missing := range undocumented(cmds, inReference, "") {
		t.Errorf("docs/commands.md does not show neonform %s", missing)
	}
}

// undocumented are the visible commands (subcommands, for a command that
// has them) that shown does not hold, by their full names.
func undocumented(cmds []*cli.Command, shown map[*cli.Command]bool, prefix string) []string {
	var out []string
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		if len(c.Subcommands) > 0 {
			out = append(out, undocumented(c.Subcommands, shown, prefix+c.Name+" ")...)
		} else if !shown[c] {
			out = append(out, prefix+c.Name)
		}
	}
	return out
}

// deliberate are the mistakes the docs make on purpose, to show the answer.
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
	return name == "help" || name == "h" || takesFlag(c, name)
}
