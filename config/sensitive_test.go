package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// secretVars declares the sensitive variables the cases below use; each
// value holds TOPSECRET, or is a size or a name whose mistakes would be
// described by their value.
const secretVars = `
variable "timeout" {
  sensitive = true
  default   = "TOPSECRET-3"
}
variable "cu" {
  sensitive = true
  type      = number
  default   = 17
}
variable "word" {
  sensitive = true
  default   = "TOPSECRET-word"
}
variable "settings" {
  sensitive = true
  default   = { "TOPSECRET-key" = "x" }
}
variable "long" {
  sensitive = true
  default   = "TOPSECRET-a-name-far-longer-than-the-sixty-four-characters-the-service-takes"
}
locals {
  timeout = "${var.timeout}"
}
`

// secretCompute is a configuration of one compute with these attributes.
func secretCompute(attrs string) string {
	return secretVars + `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
` + attrs + `
    }
  }
}
`
}

// TestSensitiveValuesAreNotRepeated: a diagnostic about a value that comes
// from a sensitive variable says "(sensitive value)" and names the variable,
// never the value, nor what would give it away (17 CU, the sizes nearest
// to it, a length).
func TestSensitiveValuesAreNotRepeated(t *testing.T) {
	cases := []struct {
		name, src, summary, variable string
	}{
		{"a duration, through a local", secretCompute(`suspend_timeout = local.timeout`), "Invalid suspend timeout", "var.timeout"},
		{"a size", secretCompute(`size = var.cu`), "Unsupported compute size", "var.cu"},
		{"an autoscaling bound", secretCompute("min_cu = var.cu\nmax_cu = 4"), "Unsupported compute size", "var.cu"},
		{"a compute type", secretCompute(`type = var.word`), "Invalid compute type", "var.word"},
		{"a setting name", secretCompute(`pg_settings = var.settings`), "Invalid Postgres setting name", "var.settings"},
		{"a name too long", secretCompute(`name = var.long`), "Compute name too long", "var.long"},
		{"a function's argument", secretCompute(`size = parseint(var.word, 10)`), "Invalid function argument", "var.word"},
		{"the wrong type", secretCompute(`disabled = var.word`), "Incorrect attribute value type", "var.word"},
		{"a project id", secretVars + `project "shop" { id = var.word }`, "Invalid project id", "var.word"},
		{"a branch id", secretVars + `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" { id = var.word }
}`, "Invalid branch id", "var.word"},
		{"two computes of one name", secretCompute("name = var.word\n}\ncompute \"spare\" {\ntype = \"read_only\"\nname = var.word"), "Duplicate compute name", "var.word"},
		{"two projects of one id", secretVars + `
variable "pid" {
  sensitive = true
  default   = "topsecret-46453911"
}
project "shop" { id = var.pid }
project "blog" { id = var.pid }`, "Duplicate project id", "var.pid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := load(t, c.src, config.Options{})
			d := only(t, diags)
			text := d.Summary + " " + d.Detail
			if d.Summary != c.summary || !strings.Contains(d.Detail, "(sensitive value") || !strings.Contains(d.Detail, c.variable) {
				t.Errorf("got %s: %s", d.Summary, d.Detail)
			}
			for _, leak := range []string{"TOPSECRET", "17", "16 and 18", "has 7"} {
				if strings.Contains(strings.ToUpper(text), leak) {
					t.Errorf("the message repeats %q: %s", leak, text)
				}
			}
			if d.Expression != nil || d.EvalContext != nil {
				t.Error("the diagnostic keeps the expression and its values, which a printer could show")
			}
		})
	}
}

// A sensitive variable's value in a -var-file is not quoted either: not in
// the message, and not as the file's line (a file of secrets a CI job wrote).
func TestSensitiveValueInVarFileIsNotQuoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret.vars")
	if err := os.WriteFile(path, []byte("cu = \"TOPSECRET-cu\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, diags := load(t, secretCompute(`size = var.cu`), config.Options{VarFiles: []string{path}})
	d := only(t, diags)
	if d.Summary != "Invalid value for variable" || d.Range != nil || strings.Contains(d.Detail, "TOPSECRET") ||
		!strings.Contains(d.Detail, "var.cu in "+path+", line 1") || !strings.Contains(d.Detail, "(sensitive value)") {
		t.Errorf("got %s: %s (subject %v)", d.Summary, d.Detail, d.Range)
	}
}

// Messages about a sensitive attribute that say nothing of its value are
// left as written: they say what to change.
func TestValueFreeMessagesStay(t *testing.T) {
	_, diags := load(t, secretCompute(`min_cu = var.cu`), config.Options{})
	if d := only(t, diags); d.Summary != "Incomplete autoscaling range" || !strings.HasPrefix(d.Detail, "min_cu is set without max_cu") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
}

// The hidden value names the variables it comes from; a name that is not a
// variable's (a plan or state file edited to hold markup or terminal
// control) is never printed.
func TestHiddenValue(t *testing.T) {
	for _, c := range []struct {
		vars []string
		want string
	}{
		{nil, "(sensitive value)"},
		{[]string{"db_password"}, "(sensitive value from var.db_password)"},
		{[]string{"db_tuning", "extra-1"}, "(sensitive value from var.db_tuning, var.extra-1)"},
		{[]string{"\x1b[2J", "ok"}, "(sensitive value from var.ok)"},
		{[]string{"x\n<!--"}, "(sensitive value)"},
	} {
		if got := config.HiddenValue(c.vars); got != c.want {
			t.Errorf("HiddenValue(%q) = %q, want %q", c.vars, got, c.want)
		}
	}
}
