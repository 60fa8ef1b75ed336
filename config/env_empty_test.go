package config_test

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// loadSettings loads one file with the given environment.
func loadSettings(t *testing.T, src string, environ ...string) (*config.Config, string) {
	t.Helper()
	cfg, diags := config.LoadSources("cfg", map[string][]byte{"main.hcl": []byte(src)}, config.Options{Environ: environ})
	return cfg, describe(diags)
}

// The fallback docs/pipelines.md and the CI workflow recommend must fall back when
// the variable is unset or empty, as Terraform's coalesce does.
func TestCoalesceFallsBackOnAnEmptyString(t *testing.T) {
	const src = `neonform {
  state = coalesce(env("NEONFORM_STATE_URL"), "neonform.state.json")
}
`
	for _, tc := range []struct {
		name    string
		environ []string
		want    string
	}{
		{"unset", nil, "neonform.state.json"},
		{"empty", []string{"NEONFORM_STATE_URL="}, "neonform.state.json"},
		{"set", []string{"NEONFORM_STATE_URL=postgres://u@db/state"}, "postgres://u@db/state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, errs := loadSettings(t, src, tc.environ...)
			if errs != "" {
				t.Fatalf("errors:\n%s", errs)
			}
			if cfg.Settings.StatePath != tc.want {
				t.Errorf("state = %q, want %q", cfg.Settings.StatePath, tc.want)
			}
		})
	}
}

// Terraform's other rules: null is skipped too, the first value that is
// neither wins, numbers are not strings (0 is a value), and nothing left is
// an error.
func TestCoalesceAsTerraform(t *testing.T) {
	for _, tc := range []struct {
		expr, want string
	}{
		{`coalesce("", null, "b", "c")`, "b"},
		{`coalesce("a", "b")`, "a"},
		{`tostring(coalesce(0, 2))`, "0"},
		{`tostring(coalesce(null, 2))`, "2"},
		{`coalesce("", 3)`, "3"}, // unified to string: "" is skipped, 3 becomes "3"
	} {
		cfg, errs := loadSettings(t, "locals {\n  v = "+tc.expr+"\n}\nneonform {\n  state = local.v\n}\n")
		if errs != "" {
			t.Errorf("%s: errors:\n%s", tc.expr, errs)
			continue
		}
		if cfg.Settings.StatePath != tc.want {
			t.Errorf("%s = %q, want %q", tc.expr, cfg.Settings.StatePath, tc.want)
		}
	}
	_, errs := loadSettings(t, "neonform {\n  state = coalesce(\"\", null)\n}\n")
	if !strings.Contains(errs, `every argument is null or an empty string ("")`) {
		t.Errorf("coalesce with nothing to choose: got\n%s", errs)
	}
}

// A value that comes out empty because env() read an unset or empty
// variable: the error about it names the variable, whether the value is
// written in the attribute, comes through a local, or is a coalesce of
// empty variables.
func TestEmptyEnvIsNamedInTheError(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		environ   []string
		want      []string
	}{
		{
			name: "unset, in the attribute",
			src:  "neonform {\n  state = env(\"NEONFORM_STATE_URL\")\n}\n",
			want: []string{"Invalid state path", `env("NEONFORM_STATE_URL") gave "" here: the environment variable NEONFORM_STATE_URL is not set.`},
		},
		{
			name:    "set to nothing, through a local",
			src:     "locals {\n  url = env(\"STATE_URL\")\n}\nneonform {\n  state = local.url\n}\n",
			environ: []string{"STATE_URL="},
			want:    []string{"Invalid state path", `env("STATE_URL") gave "" here: the environment variable STATE_URL is set to an empty string.`},
		},
		{
			name: "coalesce of empty variables",
			src:  "neonform {\n  api_url = coalesce(env(\"A\"), env(\"B\"))\n}\n",
			want: []string{"every argument is null or an empty string", `env("A") and env("B") gave "" here: in the environment, A is not set; B is not set.`},
		},
		{
			name: "a compute name",
			src:  "project \"shop\" {\n  id = \"dark-sun-46453911\"\n  branch \"main\" {\n    compute \"primary\" {\n      name = env(\"PRIMARY_NAME\")\n    }\n  }\n}\n",
			want: []string{`env("PRIMARY_NAME") gave "" here`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := loadSettings(t, tc.src, tc.environ...)
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("the error lacks %q:\n%s", w, errs)
				}
			}
		})
	}
	// A value that is not empty says nothing of the variables it passed over.
	_, errs := loadSettings(t, "neonform {\n  api_url = coalesce(env(\"A\"), \"ftp://x\")\n}\n")
	if !strings.Contains(errs, "Invalid API URL") || strings.Contains(errs, `env("A")`) {
		t.Errorf("got:\n%s", errs)
	}
}
