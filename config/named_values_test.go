package config_test

import (
	"testing"

	"github.com/neonform/neonform/config"
)

// Each variable and local keeps its value as HCL writes it, and one that
// is or comes from a sensitive variable only the words that hide it.
func TestNamedValues(t *testing.T) {
	src := `
variable "cu" {
  type    = number
  default = 2
}
variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
locals {
  size     = var.cu * 2
  greeting = "hello ${var.password}"
  names    = ["a", "b"]
}
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      size = local.size
    }
  }
}
`
	cfg, diags := config.LoadSources("dir", map[string][]byte{"main.hcl": []byte(src)},
		config.Options{Vars: []string{"cu=3"}})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := map[string]string{
		"var.cu":         "3",
		"var.password":   config.HiddenValue([]string{"password"}),
		"local.size":     "6",
		"local.greeting": config.HiddenValue([]string{"password"}),
		"local.names":    `["a", "b"]`,
	}
	if len(cfg.NamedValues) != len(want) {
		t.Errorf("NamedValues = %+v, want %d", cfg.NamedValues, len(want))
	}
	for ref, value := range want {
		nv, ok := cfg.NamedValue(ref)
		if !ok || nv.Value != value {
			t.Errorf("NamedValue(%q) = %q, %v; want %q", ref, nv.Value, ok, value)
		}
	}
	if nv, _ := cfg.NamedValue("local.size"); nv.DeclRange.Start.Line != 12 {
		t.Errorf("local.size declared at %v, want line 12", nv.DeclRange)
	}
	if nv, _ := cfg.NamedValue("var.cu"); nv.DeclRange.Start.Line != 2 {
		t.Errorf("var.cu declared at %v, want line 2", nv.DeclRange)
	}
	if _, ok := cfg.NamedValue("var.nope"); ok {
		t.Error(`NamedValue("var.nope") found a variable that is not declared`)
	}
}
