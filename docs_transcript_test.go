package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A console block is a transcript: "$ " lines are what the reader types, the
// lines under one what it prints. Every transcript of README.md and docs/*.md
// runs as written, and what it shows is what the command prints (standard
// output and error together, as a terminal shows them):
//
//   - The console blocks of one page are one session, as a reader walks
//     through the page: they run in order, in one bash and one directory laid
//     out as pasteLayout lays it out, so a later block sees the files and
//     variables an earlier one left.
//   - A command whose shown output has a line starting with "Error:" must exit
//     non-zero; every other command must exit 0.
//   - A command with no output shown is not compared.
//   - In shown output, a line "..." stands for any lines (none too), and "…"
//     inside a line for any text. Runs of spaces compare as one space (column
//     widths follow the ids), and what the emulator makes up afresh compares
//     as its kind: endpoint and branch ids (ep-..., br-...), project ids,
//     UUIDs, API key secrets, role passwords, timestamps and durations
//     (elapsed_seconds too).
//   - What the prose asks the reader to do between two blocks (edit a file,
//     start the emulator in another terminal) is done by the commands of a
//     comment just above the block's fence, run first and not compared:
//     <!-- pasted in tests after: sed -i 's/= 2/= 4/' main.hcl -->
//     The shell function scenario_file SCENARIO FILE prints a file of a CLI
//     scenario (internal/command/testdata/script), to lay out a world, a
//     configuration or a state from the files the scenario checks.
//   - A transcript that cannot run here says why, as a sh block does:
//     <!-- not pasted in tests: needs neonctl -->
func TestTranscriptsPasteAsWritten(t *testing.T) {
	t.Parallel()
	bin := buildForPaste(t)
	layout := pasteLayout(t, bin)
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	// The pages run at once: most of the time is the emulator's operations
	// the walk with curl waits for.
	var wg sync.WaitGroup
	defer wg.Wait()
	steps := 0
	for _, file := range append([]string{"README.md"}, files...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var session []transcript
		for _, tr := range transcripts(string(text)) {
			if tr.skip == "" {
				session = append(session, tr)
				steps += len(tr.steps)
			}
		}
		if len(session) == 0 {
			continue
		}
		dir, env := pasteDir(t, bin, layout)
		wg.Go(func() { runSession(t, dir, env, file, session) })
	}
	if steps < 20 {
		t.Errorf("pasted %d transcript commands; README.md and docs/ have more: is the extraction broken?", steps)
	}
}

// transcript is one console block: where it starts, why it is not pasted in
// tests ("" when it is), what runs before it, and its commands.
type transcript struct {
	line  int
	skip  string
	after string
	steps []step
}

// step is one "$ " command of a transcript and the output shown under it (nil
// when none is).
type step struct {
	line    int
	command string
	output  []string
}

var afterMarker = regexp.MustCompile(`^<!-- pasted in tests after: (.+) -->$`)

// transcripts finds the console blocks of a Markdown text. A command ending
// in a backslash goes on on the next line; `go run .` becomes neonform, and a
// trailing comment is dropped, as in sh blocks.
func transcripts(text string) []transcript {
	var out []transcript
	var cur *transcript
	inFence, prev := false, ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fenceLang.FindStringSubmatch(line); m != nil {
			if inFence {
				if cur != nil {
					out = append(out, *cur)
				}
				inFence, cur = false, nil
				continue
			}
			inFence = true
			if m[1] == "console" {
				cur = &transcript{line: n}
				p := strings.TrimSpace(prev)
				if s := skipMarker.FindStringSubmatch(p); s != nil {
					cur.skip = s[1]
				}
				if s := afterMarker.FindStringSubmatch(p); s != nil {
					cur.after = s[1]
				}
			}
			continue
		}
		prev = line
		if cur == nil {
			continue
		}
		k := len(cur.steps) - 1
		switch {
		case k >= 0 && cur.steps[k].output == nil && strings.HasSuffix(cur.steps[k].command, `\`):
			cur.steps[k].command += "\n" + line
		case strings.HasPrefix(line, "$ "):
			command := strings.TrimSpace(stripComment(strings.TrimPrefix(line, "$ ")))
			command = strings.Replace(command, "go run . ", "neonform ", 1)
			cur.steps = append(cur.steps, step{line: n, command: command})
		case k >= 0:
			cur.steps[k].output = append(cur.steps[k].output, line)
		}
	}
	return out
}

// runSession runs a page's transcripts in one bash, in dir, and compares
// what each command prints with what the page shows.
func runSession(t *testing.T, dir string, env []string, file string, session []transcript) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var script strings.Builder
	script.WriteString("exec 2>&1\nset -o pipefail\n" + scenarioFile)
	var all []step
	for _, tr := range session {
		if tr.after != "" {
			script.WriteString(tr.after + "\n")
		}
		for _, s := range tr.steps {
			fmt.Fprintf(&script, "printf '%s%d\\n'\n%s\nprintf '\\n%s%d %%d\\n' $?\n",
				beginMark, len(all), s.command, endMark, len(all))
			all = append(all, s)
		}
	}
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir, cmd.Env, cmd.WaitDelay = dir, env, 5*time.Second
	raw, err := cmd.Output()
	printed, status := splitSession(string(raw), len(all))
	for i, s := range all {
		var problem string
		wantFail := shownError(s.output)
		switch {
		case status[i] < 0:
			problem = fmt.Sprintf("it did not run to its end (bash: %v)", err)
		case wantFail && status[i] == 0:
			problem = "the page shows an error, but it exits 0"
		case !wantFail && status[i] != 0:
			problem = fmt.Sprintf("it exits %d", status[i])
		case s.output != nil && !outputMatches(s.output, printed[i]):
			problem = "it prints something else than the page shows"
		default:
			continue
		}
		t.Errorf("%s:%d: pasted as written, %s:\n$ %s\n--- the page shows:\n%s\n--- it prints:\n%s",
			file, s.line, problem, s.command, strings.Join(s.output, "\n"), printed[i])
		if status[i] < 0 {
			t.Logf("the whole session printed:\n%s", raw)
			return
		}
	}
}

// scenarioFile prints one file of a CLI scenario, for the comments that lay
// out what a page assumes from the same files the scenario checks:
// scenario_file destroy world.json > infra/.neonform/sandbox.json
const scenarioFile = `scenario_file() { sed -n "\\|^-- $2 --\$|,\\|^-- |{\\|^-- |d;p}" "$PASTE_REPO/internal/command/testdata/script/$1.txtar"; }
`

const (
	beginMark = "\x1epaste-begin "
	endMark   = "\x1epaste-end "
)

// splitSession cuts a session's output at the marks around each command: what
// command i printed, and its exit status (-1 when it did not finish).
func splitSession(raw string, n int) ([]string, []int) {
	printed, status := make([]string, n), make([]int, n)
	for i := range status {
		status[i] = -1
	}
	cur := -1
	var buf []string
	for _, line := range strings.Split(raw, "\n") {
		if rest, ok := strings.CutPrefix(line, beginMark); ok {
			cur, _ = strconv.Atoi(rest)
			buf = nil
			continue
		}
		if rest, ok := strings.CutPrefix(line, endMark); ok {
			var i, code int
			if _, err := fmt.Sscanf(rest, "%d %d", &i, &code); err == nil && i >= 0 && i < n {
				status[i] = code
				printed[i] = strings.TrimRight(strings.Join(buf, "\n"), "\n")
			}
			cur = -1
			continue
		}
		if cur >= 0 && cur < n {
			buf = append(buf, line)
			printed[cur] = strings.Join(buf, "\n")
		}
	}
	return printed, status
}

// shownError says whether shown output is an error neonform prints.
func shownError(shown []string) bool {
	for _, l := range shown {
		if strings.HasPrefix(l, "Error:") {
			return true
		}
	}
	return false
}

// madeUp are the values the emulator and the clock make up afresh, each
// compared as its kind.
var madeUp = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "UUID"},
	{regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "TIME"},
	{regexp.MustCompile(`\bep-[a-z0-9]+(-[a-z0-9]+)*-[a-z0-9]{8}\b`), "ENDPOINT-ID"},
	{regexp.MustCompile(`\bbr-[a-z0-9]+(-[a-z0-9]+)*-[a-z0-9]{8}\b`), "BRANCH-ID"},
	{regexp.MustCompile(`\b[a-z]+-[a-z]+-\d{8}\b`), "PROJECT-ID"},
	{regexp.MustCompile(`\bnapi_[a-z0-9]{64}\b`), "API-KEY"},
	{regexp.MustCompile(`\bnpg_[A-Za-z0-9]{12}\b`), "PASSWORD"},
	{regexp.MustCompile(`\b(\d+h)?(\d+m)?\d+(\.\d+)?(ns|µs|ms|s)\b`), "DURATION"},
	{regexp.MustCompile(`"elapsed_seconds":[0-9.]+`), `"elapsed_seconds":SECONDS`},
	{regexp.MustCompile(` +`), " "},
}

// normalize gives a line as it compares: made-up values as their kind, runs
// of spaces as one, no trailing space.
func normalize(line string) string {
	for _, m := range madeUp {
		line = m.re.ReplaceAllString(line, m.kind)
	}
	return strings.TrimRight(line, " ")
}

// outputMatches says whether printed is what shown shows, with its elisions.
func outputMatches(shown []string, printed string) bool {
	for len(shown) > 0 && strings.TrimSpace(shown[len(shown)-1]) == "" {
		shown = shown[:len(shown)-1]
	}
	var got []string
	if printed != "" {
		got = strings.Split(printed, "\n")
	}
	for i := range got {
		got[i] = normalize(got[i])
	}
	pats := make([]*regexp.Regexp, len(shown))
	for i, s := range shown {
		if strings.TrimSpace(s) == "..." {
			continue
		}
		parts := strings.Split(normalize(s), "…")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	}
	return linesMatch(pats, got)
}

// linesMatch matches lines against patterns, a nil pattern standing for any
// lines.
func linesMatch(pats []*regexp.Regexp, lines []string) bool {
	if len(pats) == 0 {
		return len(lines) == 0
	}
	if pats[0] == nil {
		for skip := 0; skip <= len(lines); skip++ {
			if linesMatch(pats[1:], lines[skip:]) {
				return true
			}
		}
		return false
	}
	return len(lines) > 0 && pats[0].MatchString(lines[0]) && linesMatch(pats[1:], lines[1:])
}

// The comparison must catch output that differs, or the test above passes
// for nothing; and the extraction must find every command.
func TestTranscriptComparison(t *testing.T) {
	text := "```console\n$ neonform apply \\\n  -auto-approve x   # note\nApplied ep-cool-darkness-a5b6c7d8 after 52ms\n...\nDone.\n$ P=1\n```\n\n" +
		"<!-- not pasted in tests: needs neonctl -->\n```console\n$ neonctl x\n```\n" +
		"<!-- pasted in tests after: touch f -->\n```console\n$ go run . plan\nError: no\n```\n"
	got := transcripts(text)
	if len(got) != 3 || len(got[0].steps) != 2 || got[0].steps[0].command != "neonform apply \\\n  -auto-approve x   # note" ||
		got[1].skip != "needs neonctl" || got[2].after != "touch f" || got[2].steps[0].command != "neonform plan" ||
		!shownError(got[2].steps[0].output) || shownError(got[0].steps[0].output) || got[0].steps[1].output != nil {
		t.Fatalf("transcripts found %+v", got)
	}
	shown := got[0].steps[0].output
	for printed, want := range map[string]bool{
		"Applied ep-snowy-mode-a5ws43zs after 3ms\nDone.":         true,
		"Applied  ep-snowy-mode-a5ws43zs after 1.5s\na\nb\nDone.": true,
		"Applied ep-snowy-mode-a5ws43zs after 3ms\nDone!":         false,
		"Applied br-snowy-mode-a5ws43zs after 3ms\nDone.":         false,
		"Applied ep-snowy-mode-a5ws43zs after 3ms":                false,
		"Applied ep-snowy-mode-a5ws43zs after 3ms\nDone.\nmore":   false,
	} {
		if outputMatches(shown, printed) != want {
			t.Errorf("output %q matches %q: %v, want %v", printed, shown, !want, want)
		}
	}
	if !outputMatches([]string{`{"id":"…","code":"X"}`}, `{"id":"2a9b2c3d-1111-4222-8333-444455556666","code":"X"}`) {
		t.Error("… inside a line does not stand for any text")
	}
}
