package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesWorkOnTheFirstTry runs every configuration in examples/ as a
// newcomer would, against the embedded sandbox (NEON_API_URL=embedded, as the
// examples say, for those that do not set it): both ways of applying, a plan
// saved and applied and a plain apply -auto-approve, must work on the first
// try, and then say there is nothing to do. Each variable file is a run of
// its own. A new example is picked up without a change here.
func TestExamplesWorkOnTheFirstTry(t *testing.T) {
	t.Setenv("NEON_API_URL", "embedded")
	t.Setenv("NEON_API_KEY", "")
	t.Setenv("NO_COLOR", "1")
	dirs, err := filepath.Glob(filepath.Join(repoRoot, "examples/*"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, dir := range dirs {
		if hcl, _ := filepath.Glob(filepath.Join(dir, "*.hcl")); len(hcl) == 0 {
			continue // the CI workflow
		}
		varFiles, _ := filepath.Glob(filepath.Join(dir, "*.vars"))
		for _, vars := range append([]string{""}, varFiles...) {
			name := filepath.Base(dir)
			var varArgs []string
			if vars != "" {
				name += "+" + filepath.Base(vars)
				varArgs = []string{"-var-file", filepath.Base(vars)}
			}
			t.Run(name+"/plan-out-then-apply", func(t *testing.T) {
				cfg := copyExample(t, dir)
				exampleRun(t, cfg, 0, "Saved the plan to plan.json", append([]string{"plan", "-out", "plan.json"}, varArgs...)...)
				exampleRun(t, cfg, 0, "Apply complete:", "apply", "plan.json")
				exampleSecondTime(t, cfg, varArgs)
			})
			t.Run(name+"/apply", func(t *testing.T) {
				cfg := copyExample(t, dir)
				exampleRun(t, cfg, 0, "Apply complete:", append([]string{"apply", "-auto-approve"}, varArgs...)...)
				exampleSecondTime(t, cfg, varArgs)
			})
			ran++
		}
	}
	if ran < 4 {
		t.Errorf("ran %d example configurations, want at least quickstart, free-tier, multi-branch and multi-branch with prod.vars", ran)
	}
}

// exampleSecondTime: after the first apply, plan and apply find nothing to do.
func exampleSecondTime(t *testing.T, cfg string, varArgs []string) {
	t.Helper()
	exampleRun(t, cfg, 0, "No changes:", append([]string{"plan", "-detailed-exitcode"}, varArgs...)...)
	exampleRun(t, cfg, 0, "No changes:", append([]string{"apply", "-auto-approve"}, varArgs...)...)
}

// exampleRun runs neonform in dir, as a person in that directory would, and
// checks its exit code and that its output says want.
func exampleRun(t *testing.T, dir string, code int, want string, args ...string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	got := run(append([]string{"neonform"}, args...), strings.NewReader(""), &stdout, &stderr)
	if got != code || !strings.Contains(stdout.String(), want) {
		t.Fatalf("neonform %s: exit %d (want %d), want %q in the output:\n%s\n%s", strings.Join(args, " "), got, code, want, stdout.String(), stderr.String())
	}
}

// copyExample copies an example's files (not what a run left there: the
// sandbox's world, the state) into a directory of the test's.
func copyExample(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".hcl") || strings.HasSuffix(e.Name(), ".vars")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
