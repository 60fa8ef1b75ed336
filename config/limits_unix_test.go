//go:build unix

package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/neonform/neonform/config"
)

// TestOnlyRegularFilesAreRead: /dev/zero never ends and a named pipe blocks
// until someone writes; both are refused without reading (or waiting).
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte("locals {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "values.vars")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{"/dev/zero": "a character device", fifo: "a named pipe", dir: "a directory"} {
		_, diags := config.Load(dir, config.Options{VarFiles: []string{path}})
		d := only(t, diags)
		if d.Summary != "Variable file is not a regular file" || !strings.Contains(d.Detail, path+" is "+kind) {
			t.Errorf("%s: got %s: %s", path, d.Summary, d.Detail)
		}
	}

	// A configuration file that is a symbolic link to /dev/zero, in the directory.
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.hcl")); err != nil {
		t.Fatal(err)
	}
	_, diags := config.Load(dir, config.Options{})
	if d := only(t, diags); d.Summary != "Configuration file is not a regular file" {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
}
