package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
)

// Every near-miss config finds is a fact (diag.Near: the name meant, and
// where the detail offers it), which internal/diag words for every view, so
// that validate -json carries it as did_you_mean. Each case wants the name
// as a fact, its detail without the words until a view words them, and,
// worded, the sentence config used to write itself in the same place.
func TestNearMissesAreFacts(t *testing.T) {
	const project = `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {%s}
  }
}
`
	compute := func(body string) string { return strings.Replace(project, "%s", "\n"+body+"\n", 1) }
	tests := []struct {
		name, src string
		opts      config.Options
		varFile   string // a -var-file's text
		summary   string
		near      string
		worded    string // the detail, worded, contains it
	}{
		{name: "compute type", src: compute(`type = "readonly"`), summary: "Invalid compute type",
			near: "read_only", worded: `not "readonly". Did you mean "read_only"?`},
		{name: "compute type misspelt", src: compute(`type = "read_wrte"`), summary: "Invalid compute type",
			near: "read_write", worded: `Did you mean "read_write"?`},
		{name: "argument", src: compute(`suspend = "5m"`), summary: "Unsupported argument",
			near: "suspend_timeout", worded: `in a compute block. Did you mean "suspend_timeout"?`},
		{name: "block", src: "projects \"x\" {}\n", summary: "Unsupported block type",
			near: "project", worded: `top level of a file. Did you mean "project"?`},
		{name: "account tier", src: "neonform {\n  account_tier = \"lanch\"\n}\n", summary: "Invalid account tier",
			near: "launch", worded: `not "lanch". Did you mean "launch"?`},
		{name: "api url", src: "neonform {\n  api_url = \"embeded\"\n}\n", summary: "Invalid API URL",
			near: "embedded", worded: `for the built-in emulator. Did you mean "embedded"?`},
		{name: "variable", src: "variable \"replica_cu\" {\n  type = number\n  default = 1\n}\n" + compute(`size = var.replica_c`),
			summary: "Undefined variable", near: "var.replica_cu", worded: `named "replica_c". Did you mean var.replica_cu? To add one`},
		{name: "local", src: "locals {\n  tier = 1\n}\n" + compute(`size = local.tir`),
			summary: "Undefined local value", near: "local.tier", worded: `named "tir". Did you mean local.tier? To add one`},
		{name: "type alias", src: "variable \"x\" {\n  type = integer\n}\n", summary: "Invalid type specification",
			near: "number", worded: `as in type = list(string). Did you mean number?`},
		{name: "-var", src: "variable \"cu\" {\n  type = number\n  default = 1\n}\n", opts: config.Options{Vars: []string{"cpu=1"}},
			summary: "Value for undeclared variable", near: "cu", worded: `is declared. Did you mean "cu"? Declare it`},
		{name: "-var-file", src: "variable \"cu\" {\n  type = number\n  default = 1\n}\n", varFile: "cpu = 1\n",
			summary: "Value for undeclared variable", near: "cu", worded: `is not used. Did you mean "cu"?`},
		{name: "moved", src: compute("") + "moved {\n  from = \"shop.main.old\"\n  to = \"shop.main.primry\"\n}\n",
			summary: "Move to an undeclared compute", near: "shop.main.primary", worded: `to. Did you mean "shop.main.primary"?`},
		{name: "for_each instance", src: strings.Replace(project, "compute \"primary\" {%s}", `compute "r" {
      for_each = { a = "readonly", b = "read_only" }
      name = each.key
      type = each.value
    }`, 1),
			summary: "Invalid compute type", near: "read_only", worded: `In shop.main.r["a"]: type is "read_write" (the branch's primary compute) or "read_only" (a read replica), not "readonly". Did you mean "read_only"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			if tt.varFile != "" {
				path := filepath.Join(t.TempDir(), "values.hcl")
				if err := os.WriteFile(path, []byte(tt.varFile), 0o600); err != nil {
					t.Fatal(err)
				}
				opts.VarFiles = []string{path}
			}
			_, diags := load(t, tt.src, opts)
			i := slices.IndexFunc(diags, func(d diag.Diagnostic) bool { return d.Summary == tt.summary })
			if i < 0 {
				t.Fatalf("no diagnostic %q:\n%s", tt.summary, describe(diags))
			}
			d := diags[i]
			if !slices.Equal(d.Near.Names, []string{tt.near}) || d.Near.Written {
				t.Errorf("near-miss %#v, want the fact %q, not yet worded", d.Near, tt.near)
			}
			if strings.Contains(d.Detail, "Did you mean") {
				t.Errorf("config worded its near-miss itself: %s", d.Detail)
			}
			d.Word()
			if !strings.Contains(d.Detail, tt.worded) {
				t.Errorf("worded detail %q lacks %q", d.Detail, tt.worded)
			}
			if strings.Count(d.Detail, "Did you mean") != 1 {
				t.Errorf("worded detail says it %d times: %s", strings.Count(d.Detail, "Did you mean"), d.Detail)
			}
		})
	}
}

// A value that comes from a sensitive variable is not shown, nor is the
// name nearest to it, which would tell of it.
func TestNoNearMissOfASecret(t *testing.T) {
	src := "variable \"kind\" {\n  type = string\n  default = \"readonly\"\n  sensitive = true\n}\n" + `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      type = var.kind
    }
  }
}
`
	_, diags := load(t, src, config.Options{})
	d := only(t, diags)
	d.Word()
	if len(d.Near.Names) > 0 || strings.Contains(d.Detail, "Did you mean") || !strings.Contains(d.Detail, "(sensitive value)") {
		t.Errorf("the diagnostic of a secret tells of it: %#v", d)
	}
}
