package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/internal/shellquote"
)

// Suggestions written by the packages below the CLI get the directory and
// the variables of the run; those the CLI built complete, and fragments of
// sentences, are left as they are.
func TestCompleteSuggestions(t *testing.T) {
	a := configArgs{dir: "infra", varFiles: []string{"prod.vars"}, vars: []string{"label=a b"}}
	for _, tc := range []struct{ in, want string }{
		{"Run `neonform plan` again.", "Run `neonform plan infra -var-file prod.vars -var 'label=a b'` again."},
		{"first `neonform state rm shop.main.x`", "first `neonform state rm shop.main.x infra -var-file prod.vars -var 'label=a b'`"},
		{"with `neonform plan -out plan.json`", "with `neonform plan -out plan.json infra -var-file prod.vars -var 'label=a b'`"},
		{"run `neonform force-unlock 7d3c` or", "run `neonform force-unlock 7d3c infra -var-file prod.vars -var 'label=a b'` or"},
		// Built by the CLI, complete already.
		{"`neonform plan infra -var-file prod.vars -var 'label=a b'`", "`neonform plan infra -var-file prod.vars -var 'label=a b'`"},
		// A fragment: state rm without its address would take DIR for one.
		{"or `neonform state rm` it", "or `neonform state rm` it"},
		// Commands that read no configuration.
		{"`neonform show PLANFILE` lists", "`neonform show PLANFILE` lists"},
		{"`shop.main.primary`", "`shop.main.primary`"},
	} {
		if got := a.complete(tc.in); got != tc.want {
			t.Errorf("complete(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if got := (configArgs{dir: "."}).complete("`neonform plan`"); got != "`neonform plan`" {
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
		got := a.complete("Run `neonform plan` again.")
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
