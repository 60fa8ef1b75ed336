package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
)

const oneCompute = `
variable "cu" {
  type = number
}

variable "token" {
  type      = number
  sensitive = true
  default   = 1
}

project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      size = var.cu
    }
  }
}
`

func load(t *testing.T, src string, opts config.Options) (*config.Config, diag.Diagnostics) {
	t.Helper()
	return config.LoadSources("conf", map[string][]byte{"main.hcl": []byte(src)}, opts)
}

// only returns the single diagnostic of diags, failing the test if there are others.
func only(t *testing.T, diags diag.Diagnostics) *diag.Diagnostic {
	t.Helper()
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want 1:\n%s", len(diags), describe(diags))
	}
	return &diags[0]
}

func TestCommandLineVariables(t *testing.T) {
	tests := []struct {
		name    string
		opts    config.Options
		summary string
		// detail must contain these, and must not contain notIn.
		detail []string
		notIn  string
	}{
		{
			name:    "undeclared -var",
			opts:    config.Options{Vars: []string{"cu=2", "cpu=4"}},
			summary: "Value for undeclared variable",
			detail:  []string{`"cpu"`, `Did you mean "cu"?`},
		},
		{
			name:    "-var without a value",
			opts:    config.Options{Vars: []string{"cu=2", "token"}},
			summary: "Invalid -var option",
			detail:  []string{"replica_cu=2"},
		},
		{
			name:    "-var of the wrong type",
			opts:    config.Options{Vars: []string{"cu=two"}},
			summary: "Invalid value for variable",
			detail:  []string{"-var cu", "number", "main.hcl:2"},
		},
		{
			name:    "environment value of the wrong type",
			opts:    config.Options{Vars: []string{"cu=2"}, Environ: []string{"NEONFORM_VAR_token=hunter2"}},
			summary: "Invalid value for variable",
			detail:  []string{"NEONFORM_VAR_token"},
			notIn:   "hunter2", // a sensitive value is never repeated
		},
		{
			// Given but wrong: reported once, not also as missing.
			name:    "environment value of the wrong type, and nothing else",
			opts:    config.Options{Environ: []string{"NEONFORM_VAR_cu=2 CU"}},
			summary: "Invalid value for variable",
			detail:  []string{"NEONFORM_VAR_cu", "number"},
		},
		{
			name:    "-var of the wrong type wins over a good environment value",
			opts:    config.Options{Vars: []string{"cu=[2]"}, Environ: []string{"NEONFORM_VAR_cu=2"}},
			summary: "Invalid value for variable",
			detail:  []string{"-var cu"},
		},
		{
			name:    "missing value names the three ways to set it",
			opts:    config.Options{},
			summary: "Missing variable value",
			detail:  []string{"-var 'cu=VALUE'", "-var-file", "NEONFORM_VAR_cu"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := load(t, oneCompute, tt.opts)
			d := only(t, diags)
			d.Word() // a near-miss is a fact (diag.Near) until a view words it
			if d.Summary != tt.summary {
				t.Errorf("summary %q, want %q (detail: %s)", d.Summary, tt.summary, d.Detail)
			}
			for _, s := range tt.detail {
				if !strings.Contains(d.Detail, s) {
					t.Errorf("detail %q lacks %q", d.Detail, s)
				}
			}
			if tt.notIn != "" && strings.Contains(d.Detail, tt.notIn) {
				t.Errorf("detail %q repeats %q", d.Detail, tt.notIn)
			}
		})
	}
}

func TestVariableFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}

	t.Run("undeclared name is a warning, and the file's ranges print", func(t *testing.T) {
		path := write("warn.vars", "cu = 2\ncpu = 4\n")
		cfg, diags := load(t, oneCompute, config.Options{VarFiles: []string{path}})
		d := only(t, diags)
		if d.Severity != diag.SeverityWarning || d.Summary != "Value for undeclared variable" {
			t.Fatalf("got %s", d.String())
		}
		if d.Range == nil || d.Range.Filename != path || d.Range.Start.Line != 2 {
			t.Errorf("subject %v, want %s line 2", d.Range, path)
		}
		if cfg.Files[path] == nil {
			t.Errorf("Files lacks the variable file %s", path)
		}
		if got := cfg.Compute("shop.main.primary").MaxCU; got != 2 {
			t.Errorf("size from the file = %v, want 2", got)
		}
	})
	t.Run("references are not allowed", func(t *testing.T) {
		path := write("ref.vars", "cu = var.token\n")
		_, diags := load(t, oneCompute, config.Options{VarFiles: []string{path}})
		if d := only(t, diags); d.Summary != "Variables not allowed" || d.Range.Filename != path {
			t.Errorf("got %s", d.String())
		}
	})
	t.Run("wrong type points at the value", func(t *testing.T) {
		path := write("type.vars", "cu = [1]\n")
		_, diags := load(t, oneCompute, config.Options{VarFiles: []string{path}})
		if d := only(t, diags); d.Summary != "Invalid value for variable" || d.Range.Filename != path {
			t.Errorf("got %s", d.String())
		}
	})
	t.Run("missing file", func(t *testing.T) {
		_, diags := load(t, oneCompute, config.Options{Vars: []string{"cu=1"}, VarFiles: []string{filepath.Join(dir, "nope.vars")}})
		if d := only(t, diags); d.Summary != "Cannot read variable file" {
			t.Errorf("got %s", d.String())
		}
	})
	t.Run("-var beats the file whatever the order given", func(t *testing.T) {
		path := write("four.vars", "cu = 4\n")
		cfg, diags := load(t, oneCompute, config.Options{Vars: []string{"cu=8"}, VarFiles: []string{path}})
		if len(diags) > 0 {
			t.Fatal(describe(diags))
		}
		if got := cfg.Compute("shop.main.primary").MaxCU; got != 8 {
			t.Errorf("size = %v, want 8 from -var", got)
		}
	})
}

func TestLoadDirectory(t *testing.T) {
	t.Run("reads only *.hcl files, not hidden or backup ones", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{
			"main.hcl":    `project "shop" { id = "dark-sun-46453911" }`,
			"other.hcl":   `project "blog" { id = "hidden-river-50598307" }`,
			".hidden.hcl": `this is not read {`,
			"main.hcl~":   `nor this {`,
			"values.vars": `nor = this {`,
			"notes.txt":   `nor this {`,
			"sub/x.hcl":   `nor this {`,
			"sub/y.hcl2":  `nor this {`,
		}
		for name, src := range files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cfg, diags := config.Load(dir, config.Options{})
		if len(diags) > 0 {
			t.Fatal(describe(diags))
		}
		var labels []string
		for _, p := range cfg.Projects {
			labels = append(labels, p.Label)
		}
		if strings.Join(labels, ",") != "shop,blog" {
			t.Errorf("projects %v, want shop then blog (file name order)", labels)
		}
		if len(cfg.Files) != 2 {
			t.Errorf("read %d files, want 2", len(cfg.Files))
		}
	})
	t.Run("no configuration files", func(t *testing.T) {
		_, diags := config.Load(t.TempDir(), config.Options{})
		if d := only(t, diags); d.Summary != "No configuration files" {
			t.Errorf("got %s", d.String())
		}
	})
	t.Run("a file instead of a directory", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "main.hcl")
		if err := os.WriteFile(path, []byte(`project "shop" { id = "dark-sun-46453911" }`), 0o600); err != nil {
			t.Fatal(err)
		}
		_, diags := config.Load(path, config.Options{})
		d := only(t, diags)
		if d.Summary != "Configuration directory is a file" || !strings.Contains(d.Detail, "Pass the directory that holds it: "+dir+".") {
			t.Errorf("got %s", d.String())
		}
	})
	t.Run("missing directory", func(t *testing.T) {
		_, diags := config.Load(filepath.Join(t.TempDir(), "nope"), config.Options{})
		if d := only(t, diags); d.Summary != "Cannot read configuration directory" {
			t.Errorf("got %s", d.String())
		}
	})
}

func TestSyntaxErrorsKeepFiles(t *testing.T) {
	files := map[string][]byte{
		"a.hcl": []byte("project \"shop\" {\n  id = \n}\n"),
		"b.hcl": []byte("project \"blog\" {\n  id = \"hidden-river-50598307\"\n  mni_cu = 1\n}\n"),
	}
	cfg, diags := config.LoadSources("dir", files, config.Options{})
	if !diags.HasErrors() {
		t.Fatal("want a syntax error")
	}
	// The other file's mistake is not checked on top of a file that did not parse.
	for _, d := range diags {
		if d.Range == nil || d.Range.Filename != filepath.Join("dir", "a.hcl") {
			t.Errorf("diagnostic outside the broken file: %s", d.String())
		}
	}
	for name := range files {
		if cfg.Files[filepath.Join("dir", name)] == nil {
			t.Errorf("Files lacks %s", name)
		}
	}
}

func TestDiagnosticsSortedByPosition(t *testing.T) {
	files := map[string][]byte{
		"b.hcl": []byte("project \"b\" {\n  id = \"B\"\n}\n"),
		"a.hcl": []byte("project \"a\" {\n  id = \"A\"\n  idd = 1\n}\nlocals {\n  x = local.y\n}\n"),
	}
	_, diags := config.LoadSources("", files, config.Options{})
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s:%d:%d", d.Range.Filename, d.Range.Start.Line, d.Range.Start.Column))
	}
	want := []string{"a.hcl:2:8", "a.hcl:3:3", "a.hcl:6:7", "b.hcl:2:8"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order %v, want %v\n%s", got, want, describe(diags))
	}
}

func TestParseAddress(t *testing.T) {
	tests := []struct {
		in                       string
		project, branch, compute string
		ok                       bool
	}{
		{"shop.main.primary", "shop", "main", "primary", true},
		{"a1.b_2.c-3", "a1", "b_2", "c-3", true},
		{"shop.main", "", "", "", false},
		{"shop.main.primary.x", "", "", "", false},
		{"Shop.main.primary", "", "", "", false},
		{"shop..primary", "", "", "", false},
		{"shop.main.1st", "", "", "", false},
		{"", "", "", "", false},
		{`shop.main.reports["eu"]`, "shop", "main", `reports["eu"]`, true},
		{`tenant["a.b"].previews["preview/pr-1.2"].primary`, `tenant["a.b"]`, `previews["preview/pr-1.2"]`, "primary", true},
		{`shop.main["x\"].y"].primary`, "shop", `main["x\"].y"]`, "primary", true},
		{`shop.main.reports[eu]`, "", "", "", false},
		{`shop.main.reports["eu"`, "", "", "", false},
		{`shop.main.reports['eu']`, "", "", "", false},
		{`shop.main.reports["eu"]x`, "", "", "", false},
		{`shop.main["a"]["b"].primary`, "", "", "", false},
	}
	for _, tt := range tests {
		p, b, c, err := config.ParseAddress(tt.in)
		if (err == nil) != tt.ok || p != tt.project || b != tt.branch || c != tt.compute {
			t.Errorf("ParseAddress(%q) = %q, %q, %q, %v; want %q, %q, %q, ok=%v", tt.in, p, b, c, err, tt.project, tt.branch, tt.compute, tt.ok)
		}
	}
}

func TestInstanceLabelsRoundTrip(t *testing.T) {
	for _, key := range []string{"eu", "preview/pr-12", "a.b", `say "hi"`, `back\slash`, "", "]", "tab\tnewline\n", "ünï"} {
		part := config.InstanceLabel("reports", key)
		addr := config.AddressOf("shop", "main", part)
		p, b, c, err := config.ParseAddress(addr)
		if err != nil || p != "shop" || b != "main" || c != part {
			t.Errorf("ParseAddress(%q) = %q, %q, %q, %v; want shop, main, %q", addr, p, b, c, err, part)
		}
		label, k, keyed := config.SplitInstance(c)
		if label != "reports" || k != key || !keyed {
			t.Errorf("SplitInstance(%q) = %q, %q, %v; want reports, %q, true", c, label, k, keyed, key)
		}
	}
	if label, _, keyed := config.SplitInstance("primary"); label != "primary" || keyed {
		t.Errorf("SplitInstance(primary) = %q, keyed %v; want primary without a key", label, keyed)
	}
}

func TestParsePartialAddress(t *testing.T) {
	tests := []struct {
		in   string
		want int // parts; 0: an error
	}{
		{"shop", 1},
		{"shop.main", 2},
		{`tenant["acme"]`, 1},
		{`shop.previews["preview/x"]`, 2},
		{"shop.main.primary", 3},
		{"shop.main.primary.x", 0},
		{"shop.", 0},
		{"", 0},
	}
	for _, tt := range tests {
		parts, err := config.ParsePartialAddress(tt.in)
		if got := len(parts); (err == nil) != (tt.want > 0) || (err == nil && got != tt.want) {
			t.Errorf("ParsePartialAddress(%q) = %q, %v; want %d parts", tt.in, parts, err, tt.want)
		}
	}
}

func TestSensitiveValuesAreMarked(t *testing.T) {
	src := `
variable "app" {
  type      = string
  sensitive = true
}
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      name        = "plain"
      pg_settings = { application_name = upper(var.app) }
    }
  }
}
`
	cfg, diags := load(t, src, config.Options{Environ: []string{"NEONFORM_VAR_app=secret"}})
	if len(diags) > 0 {
		t.Fatal(describe(diags))
	}
	c := cfg.Compute("shop.main.primary")
	if !c.Sensitive["pg_settings"] || c.Sensitive["name"] {
		t.Errorf("Sensitive = %v, want only pg_settings", c.Sensitive)
	}
	if c.PgSettings["application_name"] != "SECRET" {
		t.Errorf("value %q, want it evaluated", c.PgSettings["application_name"])
	}
}
