package config_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

const validDir = "../testdata/config/valid"

// ignoreRanges leaves source ranges out of model comparisons; TestSourceRanges
// checks them on their own.
var ignoreRanges = cmp.Options{
	cmpopts.IgnoreFields(config.Config{}, "Dir", "Files", "VarFiles", "NamedValues"), // named_values_test.go
	cmpopts.IgnoreFields(config.Settings{}, "DeclRange", "Variables"),                // settings_vars_test.go
	cmpopts.IgnoreFields(config.Project{}, "DeclRange"),
	cmpopts.IgnoreFields(config.Branch{}, "DeclRange", "NameRange"),
	cmpopts.IgnoreFields(config.Compute{}, "DeclRange", "Ranges"),
	cmpopts.IgnoreFields(config.Move{}, "DeclRange"),
	cmpopts.EquateEmpty(),
}

var defaultSettings = config.Settings{
	APIURL:      config.DefaultAPIURL,
	AccountTier: sizing.Paid,
	StatePath:   config.DefaultStatePath,
}

// compute is the model of a compute with every default, as an omitted attribute
// means; a test case changes what its file sets.
func compute(project, branch, label string, set func(*config.Compute)) *config.Compute {
	c := &config.Compute{
		Label:        label,
		Address:      project + "." + branch + "." + label,
		ProjectLabel: project,
		BranchLabel:  branch,
		Type:         config.ReadWrite,
		Applied:      managed.Applied{MinCU: 1, MaxCU: 1, PgSettings: map[string]string{}, Name: label},
		AllowRestart: true,
	}
	if set != nil {
		set(c)
	}
	return c
}

func TestValidConfigs(t *testing.T) {
	tests := []struct {
		dir  string
		opts config.Options
		want *config.Config
	}{
		{
			dir: "defaults",
			want: &config.Config{
				Settings: defaultSettings,
				Projects: []*config.Project{{
					Label: "shop", ID: "dark-sun-46453911",
					Branches: []*config.Branch{{
						Label: "main", Name: "main",
						Computes: []*config.Compute{compute("shop", "main", "primary", nil)},
					}},
				}},
			},
		},
		{
			dir: "full",
			want: &config.Config{
				Settings: config.Settings{APIURL: "embedded", AccountTier: sizing.Scale, StatePath: "state/neonform.json"},
				Projects: []*config.Project{
					{
						Label: "shop", ID: "dark-sun-46453911",
						Branches: []*config.Branch{
							{
								Label: "main", Name: "main", Exclusive: true,
								Computes: []*config.Compute{
									compute("shop", "main", "primary", func(c *config.Compute) {
										c.MinCU, c.MaxCU = 0.25, 2
										c.SuspendTimeoutSeconds = config.SuspendNever
										c.PgSettings = map[string]string{"work_mem": "64MB", "max_connections": "100", "jit": "false"}
										c.Name = "shop-primary"
										c.PreventDestroy, c.AllowRestart = true, false
									}),
									compute("shop", "main", "reporting", func(c *config.Compute) {
										c.Type = config.ReadOnly
										c.MinCU, c.MaxCU = 0.5, 0.5
										c.SuspendTimeoutSeconds = 900
										c.Disabled = true
									}),
								},
							},
							{
								Label: "feature_x", Name: "feature/x",
								Computes: []*config.Compute{
									compute("shop", "feature_x", "app", func(c *config.Compute) {
										c.Type = config.ReadOnly
										c.MinCU, c.MaxCU = 2, 2
									}),
								},
							},
							{Label: "pinned", Name: "pinned", ID: "br-small-term-683261"},
						},
					},
					{Label: "blog", ID: "hidden-river-50598307"},
				},
				Moves: []*config.Move{{From: "shop.dev.reporting", To: "shop.main.reporting"}},
			},
		},
		{
			// Precedence, lowest first: default, environment, -var-file in order,
			// -var in order.
			dir: "variables",
			opts: config.Options{
				Environ: []string{
					"NEONFORM_VAR_from_env=2",
					"NEONFORM_VAR_from_file=from the environment",
					"NEONFORM_VAR_from_cli=3",
					"NEONFORM_VAR_undeclared=ignored",
				},
				VarFiles: []string{
					filepath.Join(validDir, "variables", "one.vars"),
					filepath.Join(validDir, "variables", "two.vars"),
				},
				Vars: []string{"from_cli=5", "zones=[\"a\", \"b\"]", "from_cli=6", "untyped=7"},
			},
			want: &config.Config{
				Settings: defaultSettings,
				Projects: []*config.Project{{
					Label: "shop", ID: "dark-sun-46453911",
					Branches: []*config.Branch{{
						Label: "main", Name: "main",
						Computes: []*config.Compute{
							compute("shop", "main", "primary", func(c *config.Compute) {
								c.MinCU, c.MaxCU = 0.25, 2 // default 1 / 4; environment 2
								c.Name = "file two"        // the last -var-file wins over the environment
							}),
							compute("shop", "main", "replica", func(c *config.Compute) {
								c.Type = config.ReadOnly
								c.MinCU, c.MaxCU = 6, 6 // the last -var wins over files and environment
								c.Name = "a-b"          // a list given on the command line in HCL syntax
								c.PgSettings = map[string]string{"work_mem": "64MB", "jit": "off", "application_name": "s3cret"}
								c.Sensitive = map[string]bool{"pg_settings": true}
								c.SensitiveFrom = map[string][]string{"pg_settings": {"secret"}}
							}),
							compute("shop", "main", "other", func(c *config.Compute) {
								c.Type = config.ReadOnly
								c.Name = "n7" // an untyped variable takes -var text as a string
							}),
						},
					}},
				}},
				SensitiveVariables: map[string]bool{"secret": true},
			},
		},
		{
			dir:  "expressions",
			opts: config.Options{Environ: []string{"NEONFORM_TEST_STAGE=prod"}},
			want: &config.Config{
				Settings: defaultSettings,
				Projects: []*config.Project{{
					Label: "shop", ID: "dark-sun-46453911",
					Branches: []*config.Branch{{
						Label: "main", Name: "PROD-shop",
						Computes: []*config.Compute{
							compute("shop", "main", "primary", func(c *config.Compute) {
								c.MinCU, c.MaxCU = 8, 8
								c.SuspendTimeoutSeconds = 5400
								c.Name = "PROD-primary"
								c.PgSettings = map[string]string{
									"work_mem":             "64MB",
									"max_parallel_workers": "4",
									"enable_seqscan":       "false",
									"application_name":     `{"app":"shop"}`,
									"search_path":          "a,b",
								}
							}),
							compute("shop", "main", "reader", func(c *config.Compute) {
								c.Type = config.ReadOnly
								c.Name = "fallback"
								c.Disabled = true
								c.MinCU, c.MaxCU = 0.25, 4
							}),
						},
					}},
				}},
			},
		},
		{
			// for_each: instances in key order, labelled label["key"], each
			// seeing its own each.key and each.value.
			dir: "foreach",
			want: &config.Config{
				Settings: defaultSettings,
				Projects: []*config.Project{
					{
						Label: `tenant["acme"]`, ID: "dark-sun-46453911",
						Branches: []*config.Branch{{
							Label: "main", Name: "main",
							Computes: []*config.Compute{compute(`tenant["acme"]`, "main", "primary", func(c *config.Compute) {
								c.Name = "acme-primary"
							})},
						}},
					},
					{
						Label: `tenant["globex"]`, ID: "hidden-river-50598307",
						Branches: []*config.Branch{{
							Label: "main", Name: "main",
							Computes: []*config.Compute{compute(`tenant["globex"]`, "main", "primary", func(c *config.Compute) {
								c.Name = "globex-primary"
							})},
						}},
					},
					{
						Label: "shop", ID: "wandering-lake-12345678",
						Branches: []*config.Branch{
							{
								Label: "main", Name: "main",
								Computes: []*config.Compute{
									compute("shop", "main", "primary", nil),
									compute("shop", "main", `reports["eu"]`, func(c *config.Compute) {
										c.Type = config.ReadOnly
										c.Name = "reports-eu"
										c.SuspendTimeoutSeconds = config.SuspendNever
									}),
									compute("shop", "main", `reports["us"]`, func(c *config.Compute) {
										c.Type = config.ReadOnly
										c.Name = "reports-us"
										c.MinCU, c.MaxCU = 2, 2
										c.SuspendTimeoutSeconds = 600
									}),
								},
							},
							{
								Label: `preview["pr-1"]`, Name: "preview/pr-1",
								Computes: []*config.Compute{compute("shop", `preview["pr-1"]`, "primary", func(c *config.Compute) {
									c.PgSettings = map[string]string{"application_name": "pr-1"}
								})},
							},
							{
								Label: `preview["pr-2"]`, Name: "preview/pr-2",
								Computes: []*config.Compute{compute("shop", `preview["pr-2"]`, "primary", func(c *config.Compute) {
									c.PgSettings = map[string]string{"application_name": "pr-2"}
								})},
							},
							{Label: `listed["a"]`, Name: "a"},
							{Label: `listed["b"]`, Name: "b"},
						},
					},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join(validDir, tt.dir)
			cfg, diags := config.Load(dir, tt.opts)
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics:\n%s", describe(diags))
			}
			if diff := cmp.Diff(tt.want, cfg, ignoreRanges); diff != "" {
				t.Errorf("model differs (-want +got):\n%s", diff)
			}
			if cfg.Dir != dir {
				t.Errorf("Dir = %q, want %q", cfg.Dir, dir)
			}
		})
	}
}

// TestSourceRanges checks that the model keeps where each thing was written, so
// plan-time errors can point at the file.
func TestSourceRanges(t *testing.T) {
	dir := filepath.Join(validDir, "full")
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics:\n%s", describe(diags))
	}
	main := filepath.Join(dir, "main.hcl")
	at := func(r hcl.Range) string { return r.Filename + ":" + strconv.Itoa(r.Start.Line) }
	line := func(n int) string { return main + ":" + strconv.Itoa(n) }

	primary := cfg.Compute("shop.main.primary")
	reporting := cfg.Compute("shop.main.reporting")
	checks := []struct {
		what string
		got  string
		want string
	}{
		{"settings", at(cfg.Settings.DeclRange), filepath.Join(dir, "settings.hcl") + ":1"},
		{"project", at(cfg.Projects[0].DeclRange), line(1)},
		{"branch", at(cfg.Projects[0].Branches[0].DeclRange), line(4)},
		{"a branch's name: its label", at(cfg.Projects[0].Branches[0].NameRange), line(4)},
		{"a branch's name: its name attribute", at(cfg.Projects[0].Branches[1].NameRange), line(30)},
		{"compute", at(primary.DeclRange), line(7)},
		{"type", at(primary.Range("type")), line(8)},
		{"min_cu", at(primary.Range("min_cu")), line(9)},
		{"max_cu", at(primary.Range("max_cu")), line(10)},
		{"suspend_timeout", at(primary.Range("suspend_timeout")), line(11)},
		{"pg_settings", at(primary.Range("pg_settings")), line(12)},
		{"name", at(primary.Range("name")), line(13)},
		{"lifecycle.prevent_destroy", at(primary.Range("lifecycle.prevent_destroy")), line(16)},
		{"lifecycle.allow_restart", at(primary.Range("lifecycle.allow_restart")), line(17)},
		{"not written: falls back to the block", at(primary.Range("disabled")), line(7)},
		{"size stands for min_cu", at(reporting.Range("min_cu")), line(23)},
		{"size stands for max_cu", at(reporting.Range("max_cu")), line(23)},
		{"moved", at(cfg.Moves[0].DeclRange), line(47)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: range at %s, want %s", c.what, c.got, c.want)
		}
	}
	if _, ok := primary.Ranges.Get("disabled"); ok {
		t.Error("Ranges has disabled, which the file does not write")
	}
	for _, name := range []string{"main.hcl", "settings.hcl"} {
		if cfg.Files[filepath.Join(dir, name)] == nil {
			t.Errorf("Files lacks %s", name)
		}
	}
}
