package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
)

// TestApplyTakesADirectoryOrAPlanFileThenADirectory reads apply's arguments
// without a command line: each shape ends as a directory and a plan file,
// or as the refusal that says what to run instead.
func TestApplyTakesADirectoryOrAPlanFileThenADirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "infra")
	plan := filepath.Join(root, "plan.json")
	hcl := filepath.Join(dir, "main.hcl")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{plan, hcl} {
		if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name          string
		args          []string
		scope         diff.Scope
		refresh       bool
		dir, planFile string
		refused       string
	}{
		{name: "none", dir: "."},
		{name: "a directory", args: []string{dir}, dir: dir},
		{name: "a plan file", args: []string{plan}, dir: ".", planFile: plan},
		{name: "a plan file and a directory", args: []string{plan, dir}, dir: dir, planFile: plan},
		{name: "a directory, then a plan file", args: []string{dir, plan}, refused: "pass it first"},
		{name: "a configuration file", args: []string{hcl}, refused: "is a configuration file, not a plan"},
		{name: "nothing there", args: []string{filepath.Join(root, "gone")}, refused: "neither a configuration directory nor a plan file"},
		{name: "three", args: []string{plan, dir, dir}, refused: "too many arguments"},
		{name: "a plan file with -refresh-branches", args: []string{plan}, refresh: true, refused: "-refresh-branches is for planning"},
		{name: "a plan file with -destroy", args: []string{plan}, scope: diff.Scope{Destroy: true}, refused: "-target, -replace and -destroy are for planning"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := applyOptions{planInputs: planInputs{Dir: ".", Scope: tc.scope, RefreshBranches: tc.refresh}}
			err := o.takeArgs(tc.args)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("takeArgs(%q) = %v, want an error saying %q", tc.args, err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("takeArgs(%q): %v", tc.args, err)
			}
			if o.Dir != tc.dir || o.PlanFile != tc.planFile {
				t.Errorf("takeArgs(%q): directory %q and plan file %q, want %q and %q", tc.args, o.Dir, o.PlanFile, tc.dir, tc.planFile)
			}
		})
	}
}
