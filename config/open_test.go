package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// An editor's text of a file is read in place of the disk's, and a file
// not saved yet as if it were; a file on disk that the editor does not
// hold is read as always.
func TestLoadOpenFiles(t *testing.T) {
	dir := t.TempDir()
	onDisk := "project \"shop\" {\n  id = \"dark-sun-46453911\"\n  branch \"main\" {\n    compute \"primary\" {\n      size = 1\n    }\n  }\n}\n"
	for name, text := range map[string]string{"main.hcl": onDisk, "vars.hcl": "variable \"cu\" {\n  default = 2\n}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := map[string][]byte{
		"main.hcl": []byte(strings.Replace(onDisk, "size = 1", "size = var.cu", 1)),
		"new.hcl":  []byte("project \"other\" {\n  id = \"quiet-meadow-52817364\"\n}\n"),
	}
	cfg, diags := config.Load(dir, config.Options{Open: open})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if c := cfg.Compute("shop.main.primary"); c == nil || c.MaxCU != 2 {
		t.Errorf("shop.main.primary = %+v, want the editor's size = var.cu (2)", c)
	}
	if len(cfg.Projects) != 2 {
		t.Errorf("%d projects, want the unsaved file's too", len(cfg.Projects))
	}
	open["main.hcl"] = []byte(strings.Replace(onDisk, "size = 1", "size = 2.7", 1))
	_, diags = config.Load(dir, config.Options{Open: open})
	if len(diags) != 1 || diags[0].Range == nil || diags[0].Range.Filename != filepath.Join(dir, "main.hcl") || diags[0].Range.Start.Line != 5 {
		t.Errorf("diagnostics of the editor's text: %v", diags)
	}
}
