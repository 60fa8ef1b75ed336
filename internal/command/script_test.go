package command

import (
	"flag"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var updateScripts = flag.Bool("update", false, "rewrite the golden files of testdata/script from actual output")

// scriptParams are the settings every CLI scenario runs with: a clean
// environment without colour, and the custom commands of scriptCommands.
func scriptParams(t *testing.T) testscript.Params {
	return testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *updateScripts,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv("NEON_API_KEY", "")
			env.Setenv("NEON_API_URL", "")
			env.Setenv("NEONFORM_RATE_LIMIT", "")
			// The account's rate budget is shared through a file of the
			// user's cache directory (state/filebudget); testscript's HOME
			// has none.
			env.Setenv("XDG_CACHE_HOME", t.TempDir())
			return checkPlanReport(env, t.TempDir())
		},
		Cmds:      scriptCommands(),
		Condition: scriptCondition,
	}
}
