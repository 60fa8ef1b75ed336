package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/neonform/neonform/config"
)

// VarFiles tells the -var-file files apart from the configuration's own, so
// that a plan's record of the configuration does not change with them.
func TestVarFilesAreToldApart(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	main := write("main.hcl", "variable \"x\" {\n  type = number\n}\n")
	vars := write("prod.vars", "x = 1\n")
	cfg, diags := config.Load(dir, config.Options{VarFiles: []string{vars}})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	if cfg.Files[main] == nil || cfg.Files[vars] == nil {
		t.Fatalf("Files = %v, want both files", cfg.Files)
	}
	if !cfg.VarFiles[vars] || cfg.VarFiles[main] || len(cfg.VarFiles) != 1 {
		t.Errorf("VarFiles = %v, want only %s", cfg.VarFiles, vars)
	}
}
