package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every command a reader would paste from README.md and docs/*.md runs as
// written: the lines of each sh, bash or shell block here, and the console
// blocks, transcripts, in docs_transcript_test.go. A block that shows "$ "
// commands must be one of those. Each sh block runs on its own, with
// bash -e -o pipefail, in a directory laid out as the docs assume: the
// examples, infra/ (examples/multi-branch), prod.vars, and plan.json made
// from them, against the embedded sandbox (NEON_API_URL=embedded). `go run .`
// is neonform built from this checkout. A block that cannot run here says
// why in the comment just above it:
//
//	<!-- not pasted in tests: needs docker -->
//
// and `go test ./...` is this suite itself, which CI runs.
func TestShellBlocksPasteAsWritten(t *testing.T) {
	t.Parallel()
	bin := buildForPaste(t)
	layout := pasteLayout(t, bin)
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range append([]string{"README.md"}, files...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := untaggedTranscript(string(text)); n > 0 {
			t.Errorf("%s:%d: a block shows \"$ \" commands but is not a console block: tag it console, so that it is pasted in tests, or say above it <!-- not pasted in tests: REASON -->", file, n)
		}
		for _, b := range shellBlocks(string(text)) {
			if b.skip != "" || len(b.commands) == 0 {
				continue
			}
			ran++
			out, err := pasteBlock(t, bin, layout, b.commands)
			if err != nil || strings.Contains(out, "command not found") {
				t.Errorf("%s:%d: pasted as written, the block fails (%v):\n%s\n--- output:\n%s",
					file, b.line, err, strings.Join(b.commands, "\n"), out)
			}
		}
	}
	if ran < 5 {
		t.Errorf("pasted %d blocks; README.md and docs/ have more: is the extraction broken?", ran)
	}
}

// buildForPaste builds neonform from this checkout into a directory of its
// own, the one the pasted commands find first on PATH.
func buildForPaste(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"bash", "jq", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the documented commands need %s (.ci/run installs it): %v", tool, err)
		}
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "neonform"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// pasteBlock runs commands, as a reader would paste them, in a fresh
// directory laid out as the docs assume.
func pasteBlock(t *testing.T, bin, layout string, commands []string) (string, error) {
	t.Helper()
	dir, env := pasteDir(t, bin, layout)
	script := "set -eo pipefail\n" + strings.Join(commands, "\n") + "\n"
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// pasteDir makes a directory laid out as the docs assume, a copy of layout,
// and the environment the commands run in.
func pasteDir(t *testing.T, bin, layout string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-a", layout+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("cp %s: %v\n%s", layout, err, out)
	}
	return dir, pasteEnv(t, bin, dir)
}

// pasteLayout lays out, once for every block, what the docs assume: the
// examples, infra/ (examples/multi-branch), prod.vars, and plan.json.
func pasteLayout(t *testing.T, bin string) string {
	t.Helper()
	dir := t.TempDir()
	for from, to := range map[string]string{
		"examples":                        "examples",
		"examples/multi-branch":           "infra",
		"examples/multi-branch/prod.vars": "prod.vars",
	} {
		if out, err := exec.Command("cp", "-r", from, filepath.Join(dir, to)).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", from, err, out)
		}
	}
	// What running the examples here left, and Git ignores, is not a clone's.
	var left []string
	for _, pattern := range []string{"neonform.state.json*", "plan.json", ".neonform"} {
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*", pattern))
		left = append(left, more...)
		more, _ = filepath.Glob(filepath.Join(dir, "infra", pattern))
		left = append(left, more...)
	}
	for _, p := range left {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	// A saved plan, for the blocks that show or apply plan.json.
	plan := exec.Command(filepath.Join(bin, "neonform"), "plan", "-out", "plan.json", "-var-file", "prod.vars", "infra/")
	plan.Dir, plan.Env = dir, pasteEnv(t, bin, dir)
	if out, err := plan.CombinedOutput(); err != nil {
		t.Fatalf("making plan.json: %v\n%s", err, out)
	}
	return dir
}

// pasteEnv is the environment of the commands run in dir: neonform first on
// PATH, the embedded sandbox, a home of their own. PASTE_REPO is this
// checkout, for the comments that lay out a scenario's files.
func pasteEnv(t *testing.T, bin, dir string) []string {
	t.Helper()
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "HOME="+filepath.Join(dir, "home"),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"NEON_API_URL=embedded", "NEON_API_KEY=", "NO_COLOR=1", "NEONFORM_LOG=", "PASTE_REPO="+repo)
}

// pastedBlock is one block's commands, where it starts, and why it is not
// pasted in tests ("" when it is).
type pastedBlock struct {
	line     int
	commands []string
	skip     string
}

var (
	fenceLang  = regexp.MustCompile("^```([a-z]*)")
	skipMarker = regexp.MustCompile(`^<!-- not pasted in tests: (.+) -->$`)
)

// shellBlocks finds the blocks of a Markdown text a reader would paste: the
// commands of sh, bash and shell blocks (a line ending in a backslash goes
// on). `go run .` becomes neonform.
func shellBlocks(text string) []pastedBlock {
	var blocks []pastedBlock
	var cur *pastedBlock
	lang, prev := "", ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fenceLang.FindStringSubmatch(line); m != nil {
			if cur != nil {
				blocks = append(blocks, *cur)
				cur = nil
				continue
			}
			lang = m[1]
			cur = &pastedBlock{line: n}
			if s := skipMarker.FindStringSubmatch(strings.TrimSpace(prev)); s != nil {
				cur.skip = s[1]
			}
			continue
		}
		prev = line
		if cur == nil {
			continue
		}
		var command string
		switch {
		case lang == "sh" || lang == "bash" || lang == "shell":
			command = line
		default:
			continue
		}
		command = strings.TrimSpace(stripComment(command))
		if command == "" || command == "go test ./..." { // the suite itself, which CI runs
			continue
		}
		command = strings.Replace(command, "go run . ", "neonform ", 1)
		if k := len(cur.commands); k > 0 && strings.HasSuffix(cur.commands[k-1], `\`) {
			cur.commands[k-1] += "\n" + command
			continue
		}
		cur.commands = append(cur.commands, command)
	}
	return blocks
}

// untaggedTranscript returns the line of the first block that shows "$ "
// commands but is neither a console nor a shell block, nor says why it is not
// pasted: a transcript the tests would not run (0 when there is none).
func untaggedTranscript(text string) int {
	inFence, lang, start, skipped, prev := false, "", 0, false, ""
	for n, line := range strings.Split(text, "\n") {
		if m := fenceLang.FindStringSubmatch(line); m != nil {
			if !inFence {
				lang, start = m[1], n+1
				skipped = skipMarker.MatchString(strings.TrimSpace(prev))
			}
			inFence = !inFence
			continue
		}
		prev = line
		if inFence && !skipped && strings.HasPrefix(strings.TrimSpace(line), "$ ") &&
			lang != "console" && lang != "sh" && lang != "bash" && lang != "shell" {
			return start
		}
	}
	return 0
}

// stripComment drops a trailing "# ..." comment written after two spaces or
// more, as the docs align them; a # inside a word or quotes stays.
func stripComment(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), "#") {
		return ""
	}
	if i := strings.Index(line, "   #"); i >= 0 {
		return line[:i]
	}
	if i := strings.Index(line, "  # "); i >= 0 {
		return line[:i]
	}
	return line
}

// The extraction must find what a reader would paste and nothing else, or
// the test above passes for nothing.
func TestShellBlocksFindsWhatAReaderPastes(t *testing.T) {
	text := "Intro\n\n```sh\nneonform plan -out plan.json infra/   # job 1\n# a comment\nneonform apply \\\n  plan.json\n```\n\n" +
		"<!-- not pasted in tests: needs docker -->\n```sh\ndocker run x\n```\n\n" +
		"```hcl\nproject \"x\" {}\n```\n\n```console\n$ neonform version\nneonform devel\n```\n"
	blocks := shellBlocks(text)
	var got []string
	for _, b := range blocks {
		got = append(got, strings.Join(b.commands, " | ")+" skip="+b.skip)
	}
	want := []string{
		"neonform plan -out plan.json infra/ | neonform apply \\\nplan.json skip=",
		"docker run x skip=needs docker",
		" skip=",
		" skip=",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("shellBlocks found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for text, want := range map[string]int{
		"a\n```\n$ neonform plan\n```\n":                                       2,
		"```text\nx\n $ neonform plan\n```\n":                                  1,
		"```console\n$ neonform plan\n```\n```sh\n$ x\n```\n":                  0,
		"<!-- not pasted in tests: needs neonctl -->\n```\n$ neonctl x\n```\n": 0,
		"```\nx\n```\n$ outside a block\n":                                     0,
	} {
		if got := untaggedTranscript(text); got != want {
			t.Errorf("untaggedTranscript(%q) = %d, want %d", text, got, want)
		}
	}
}
