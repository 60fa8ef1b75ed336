package config_test

import (
	"slices"
	"testing"

	"github.com/neonform/neonform/config"
)

// Settings.Variables are the variables applying a saved plan reads: the
// neonform block's, the lifecycle blocks' and for_each's, through locals
// too; never one that only sets a size.
func TestSettingsVariablesAreWhatApplyReads(t *testing.T) {
	src := `
variable "state" { type = string }
variable "guard" { type = bool }
variable "keys" { type = list(string) }
variable "size" { type = number }

locals {
  state_file = var.state
}

neonform {
  state = local.state_file
}

project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "reports" {
      for_each = toset(var.keys)
      name     = "reports-${each.key}"
      type     = "read_only"
      size     = var.size
      lifecycle {
        allow_restart = var.guard
      }
    }
  }
}
`
	vars := []string{"state=s.json", "guard=false", `keys=["eu"]`, "size=2"}
	for _, opts := range []config.Options{{Vars: vars}, {Vars: vars, SettingsOnly: true, Projects: true}} {
		cfg, diags := load(t, src, opts)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got, want := cfg.Settings.Variables, []string{"guard", "keys", "state"}; !slices.Equal(got, want) {
			t.Errorf("SettingsOnly=%v: Variables = %v, want %v", opts.SettingsOnly, got, want)
		}
	}
	cfg, _ := load(t, src, config.Options{Vars: vars, SettingsOnly: true})
	if got, want := cfg.Settings.Variables, []string{"state"}; !slices.Equal(got, want) {
		t.Errorf("the neonform block alone: Variables = %v, want %v", got, want)
	}
}
