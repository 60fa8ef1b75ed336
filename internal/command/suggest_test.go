package command

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/shellquote"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// pasteArgs is a run whose every part needs quoting or hiding: a -chdir and
// a directory with spaces, a variable file, a plain -var and a sensitive one.
func pasteArgs() configArgs {
	return configArgs{dir: "the infra", chdir: "my repo", varFiles: []string{"prod vars.hcl"},
		vars:    []string{"label=a b", "db_password=hunter2"},
		secrets: &sensitiveVars{known: true, names: map[string]bool{"db_password": true}}}
}

// inContext is what a command that reads the configuration is followed by
// in pasteArgs' run, as a shell gives it to neonform.
var inContext = []string{"the infra", "-var-file", "prod vars.hcl", "-var", "label=a b", "-var", "db_password=(sensitive)"}

// pasted is each command text suggests in backticks, as a POSIX shell
// splits it into neonform's arguments.
func pasted(t *testing.T, text string) [][]string {
	t.Helper()
	var out [][]string
	for _, m := range backticked.FindAllStringSubmatch(text, -1) {
		words, err := shellSplit(m[1])
		if err != nil {
			t.Fatalf("%s: %v", m[1], err)
		}
		out = append(out, words)
	}
	return out
}

// argv is the command line a shell should give neonform for a suggestion
// of args in pasteArgs' run; config: the command reads the configuration.
func argv(config bool, args ...string) []string {
	out := append([]string{"neonform", "-chdir=my repo"}, args...)
	if config {
		out = append(out, inContext...)
	}
	return out
}

// checkPasted fails unless text, rendered for pasteArgs' run, suggests
// exactly want, in order, and never the sensitive value.
func checkPasted(t *testing.T, kind, text string, want ...[]string) {
	t.Helper()
	if strings.Contains(text, "hunter2") {
		t.Errorf("%s: a sensitive value is shown: %s", kind, text)
	}
	if got := pasted(t, text); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("%s: pasted, the suggestions are\n%q\nwant\n%q\nin: %s", kind, got, want, text)
	}
}

// A key in an address needs quoting for a shell.
const keyed = `shop.main.reports["eu west"]`

// Every kind of producer of a suggestion, rendered for a run with -chdir,
// a directory and variables: each command pasted into a shell gives
// neonform the intended arguments, with the run's context.
func TestSuggestionsPasteBackToTheirArguments(t *testing.T) {
	a := pasteArgs()

	// A diagnostic of the state (state mv of an address that is taken).
	st := state.New()
	st.Computes["shop.main.a"] = &state.Compute{}
	st.Computes[keyed] = &state.Compute{}
	err := st.Move("shop.main.a", keyed)
	var de *diag.Error
	if !errors.As(err, &de) {
		t.Fatalf("state mv: %v", err)
	}
	ds := slices.Clone(de.Diagnostics)
	a.completeDiagnostics(ds)
	checkPasted(t, "state diagnostic", ds[0].Detail, argv(true, "state", "rm", keyed))
	checkPasted(t, "state error", a.completeError(err.Error(), err), argv(true, "state", "rm", keyed))

	// An error of apply's that suggests two commands.
	lost := error(&apply.FoundNotCreatedError{Address: keyed, EndpointID: "ep-1", Name: "reports"})
	checkPasted(t, "apply error", a.completeError(lost.Error(), lost),
		argv(true, "import", keyed, "ep-1"), argv(true, "plan"))

	// A wrapped error of the plan file's reader.
	dir := t.TempDir()
	notPlan := filepath.Join(dir, "state.json")
	if err := os.WriteFile(notPlan, []byte(`{"format_version": 2, "computes": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = planfile.ReadFile(notPlan)
	checkPasted(t, "plan file error", a.completeError("reading: "+err.Error(), err),
		argv(true, "plan", "-out", filepath.ToSlash(filepath.Join(dir, "plan.json"))))

	// A lock held: force-unlock.
	local := state.NewLocal(filepath.Join(dir, "neonform.state.json"))
	unlock, err := local.Lock(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unlock() }()
	_, err = local.Lock(context.Background(), "test")
	var locked *state.LockedError
	if !errors.As(err, &locked) || locked.Unlock == nil {
		t.Fatalf("second lock: %v", err)
	}
	checkPasted(t, "lock error", a.completeError(err.Error(), err), argv(true, "force-unlock", locked.Info.ID))

	// A configuration error (hcl's diagnostic, its Extra): a move across projects.
	cfgDir := t.TempDir()
	src := `project "shop" {
  id = "p-1"
  branch "main" {
    compute "b" {}
  }
}
project "other" {
  id = "p-2"
  branch "main" {
    compute "b" {}
  }
}
moved {
  from = shop.main.a
  to   = other.main.b
}
`
	if err := os.WriteFile(filepath.Join(cfgDir, "main.hcl"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	_, cds := config.Load(cfgDir, config.Options{})
	i := slices.IndexFunc(cds, func(d diag.Diagnostic) bool { return d.Summary == "Move across projects" })
	if i < 0 {
		t.Fatalf("no move refused: %v", cds)
	}
	a.completeDiagnostics(cds)
	checkPasted(t, "configuration diagnostic", cds[i].Detail, argv(true, "state", "rm", "shop.main.a"))

	// A plan's warning, and the partial plan's end, as the plan view writes them.
	rm := suggest.Run("state", "rm", keyed)
	p := &diff.Plan{Warnings: []string{"forget it with " + rm.Quoted() + " or not"}, Suggestions: []suggest.Command{rm}, Targets: []string{"shop"}}
	var out bytes.Buffer
	if err := view.Human(&out, p, view.HumanOptions{Context: a.context()}); err != nil {
		t.Fatal(err)
	}
	checkPasted(t, "plan view", out.String(), argv(true, "state", "rm", keyed), argv(true, "plan"))

	// The report at the end of an apply that stopped.
	rep := &apply.Report{Interrupted: true}
	checkPasted(t, "apply report", views.Summary(rep, a.context()), argv(true, "plan"))

	// A command that reads no configuration (apply of a saved plan, which
	// holds its values) takes the -chdir and never a -var.
	err = suggest.Wrap(errors.New("apply it: "+suggest.Plain("apply", "p.json").Quoted()), suggest.Plain("apply", "p.json"))
	checkPasted(t, "plain command", a.completeError(err.Error(), err), argv(false, "apply", "p.json"))
}

// Only the commands a message lists are completed: text that merely looks
// like one (a fragment of a sentence, a command the CLI built whole) is
// left as it is.
func TestOnlyListedCommandsAreCompleted(t *testing.T) {
	a := configArgs{dir: "infra", vars: []string{"label=a"}, secrets: &sensitiveVars{known: true}}
	rm := suggest.Run("state", "rm", "shop.main.x")
	text := "`neonform state rm` of `neonform state list shop`, or " + rm.Quoted() + "; built: `" + a.command("plan") + "`"
	got := a.completeError(text, suggest.Wrap(errors.New(text), rm))
	want := "`neonform state rm` of `neonform state list shop`, or `neonform state rm shop.main.x infra -var label=a`; built: `neonform plan infra -var label=a`"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := (configArgs{dir: "."}).completeError(text, suggest.Wrap(errors.New(text), rm)); got != text {
		t.Errorf("the current directory with no variables adds nothing, got %q", got)
	}
}

// A -var value of a sensitive variable is never repeated in a suggestion:
// an error message may end up in a CI log. The run knows which variables are
// sensitive once it read the configuration, and reads their declarations
// when it stopped before.
func TestSuggestionsNeverRepeatASensitiveValue(t *testing.T) {
	dir := t.TempDir()
	src := "variable \"db_password\" {\n  sensitive = true\n}\nvariable \"label\" {}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := []string{"db_password=hunter2", "label=a b"}
	for name, a := range map[string]configArgs{
		"known":        {dir: dir, vars: vars, secrets: &sensitiveVars{known: true, names: map[string]bool{"db_password": true}}},
		"read at need": {dir: dir, vars: vars, secrets: &sensitiveVars{}},
	} {
		got := a.command("plan")
		if strings.Contains(got, "hunter2") || !strings.Contains(got, "-var 'db_password=(sensitive)' -var 'label=a b'") {
			t.Errorf("%s: %s", name, got)
		}
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"plan.json":         "plan.json",
		"out dir/plan.json": "'out dir/plan.json'",
		`zones=["a", "b"]`:  `'zones=["a", "b"]'`,
		"it's":              `'it'\''s'`,
		"":                  "''",
	} {
		if got := shellquote.Word(in); got != want {
			t.Errorf("shellquote.Word(%q) = %s, want %s", in, got, want)
		}
		if words, err := shellSplit("neonform " + shellquote.Word(in)); err != nil || len(words) != 2 || words[1] != in {
			t.Errorf("%q does not come back whole from a shell: %q, %v", in, words, err)
		}
	}
}
