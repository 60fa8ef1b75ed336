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

// TestEveryConfigurationFileIsRead: a *.hcl that cannot be read stops the
// run with an error that names it and says how to fix it. Skipped, a file
// holding a moved block would turn a rename into a delete and a create.
func TestEveryConfigurationFileIsRead(t *testing.T) {
	cases := map[string]struct {
		make          func(path string) error
		summary, says string
	}{
		"a link to nothing": {
			func(path string) error { return os.Symlink("../shared/moved.hcl", path) },
			"Configuration file is a broken link", "is a symbolic link to ../shared/moved.hcl, which does not exist. neonform reads every *.hcl file of the directory, and checks or plans nothing without one of them: point the link at the file",
		},
		"a link to itself": {
			func(path string) error { return os.Symlink(filepath.Base(path), path) },
			"Configuration file is a broken link", "is a symbolic link that leads back to itself",
		},
		"a directory": {
			func(path string) error { return os.Mkdir(path, 0o700) },
			"Configuration file is not a regular file", "is a directory, not a regular file: neonform reads configuration and variable files only from regular files (or symbolic links to them), so that reading always ends. neonform reads every *.hcl file of the directory, and checks or plans nothing without one of them: rename the directory",
		},
		"a named pipe": {
			func(path string) error { return syscall.Mkfifo(path, 0o600) },
			"Configuration file is not a regular file", "is a named pipe",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte("locals {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "moved.hcl")
			if err := c.make(path); err != nil {
				t.Fatal(err)
			}
			cfg, diags := config.Load(dir, config.Options{})
			d := only(t, diags)
			if d.Summary != c.summary || !strings.HasPrefix(d.Detail, path+" ") || !strings.Contains(d.Detail, c.says) {
				t.Errorf("got %s: %s", d.Summary, d.Detail)
			}
			if len(cfg.Projects) > 0 || len(cfg.Files) > 0 {
				t.Errorf("the rest of the configuration was loaded: %d files", len(cfg.Files))
			}
		})
	}
}

// A -var-file that is a link to nothing is named as one, with the fix.
func TestVariableFileBrokenLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte("locals {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "secret.vars")
	if err := os.Symlink("/run/secrets/gone.vars", link); err != nil {
		t.Fatal(err)
	}
	_, diags := config.Load(dir, config.Options{VarFiles: []string{link}})
	d := only(t, diags)
	want := "-var-file " + link + ": " + link + " is a symbolic link to /run/secrets/gone.vars, which does not exist. Point the link at the file (a relative target is read from the link's directory), or remove the link. A relative path is read from the current directory."
	if d.Summary != "Variable file is a broken link" || d.Detail != want {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
}
