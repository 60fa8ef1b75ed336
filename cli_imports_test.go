package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// cliPath is the command-line library, which only the root's main.go and the
// command files (internal/command/cmd_*.go) may import: a command's run
// function, and everything it calls, takes a typed options value, so it can
// be called and tested without a command line (docs/architecture.md).
const cliPath = "github.com/urfave/cli/v2"

// cliAllowed reports whether the file at path (slash-separated, from the
// repository's root) may import cliPath.
func cliAllowed(path string) bool {
	dir, file := filepath.Split(path)
	return path == "main.go" ||
		dir == "internal/command/" && strings.HasPrefix(file, "cmd_")
}

// TestCLIOnlyInCommandFiles fails for each Go file outside tests that
// imports urfave/cli but is neither main.go nor an internal/command/cmd_*.go.
func TestCLIOnlyInCommandFiles(t *testing.T) {
	importers := cliImporters(t)
	for _, path := range importers {
		if !cliAllowed(path) {
			t.Errorf("%s imports %s: only main.go and internal/command/cmd_*.go may. Read the flags in a cmd_*.go file into a typed value and pass that here", path, cliPath)
		}
	}
	// The walk must see the files that do import it, or the test proves nothing.
	if !slices.Contains(importers, "internal/command/cmd_apply.go") {
		t.Errorf("internal/command/cmd_apply.go is not among the files found to import %s (%v): the walk missed it", cliPath, importers)
	}
}

func TestCLIAllowed(t *testing.T) {
	for path, want := range map[string]bool{
		"main.go":                           true,
		"internal/command/cmd_apply.go":     true,
		"internal/command/cmd_flags_env.go": true,
		"internal/command/apply_run.go":     false,
		"internal/command/app.go":           false,
		"internal/command/views/cmd_x.go":   false,
		"diff/cmd_plan.go":                  false,
		"cmd/main.go":                       false,
	} {
		if got := cliAllowed(path); got != want {
			t.Errorf("cliAllowed(%q) = %v, want %v", path, got, want)
		}
	}
}

// cliImporters lists the Go files outside tests and testdata that import
// cliPath, slash-separated from the repository's root.
func cliImporters(t *testing.T) []string {
	t.Helper()
	var out []string
	eachSource(t, parser.ImportsOnly, func(path string, _ *token.FileSet, f *ast.File) {
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == cliPath {
				out = append(out, path)
			}
		}
	})
	return out
}
