package lsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/internal/command"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/lsp"
)

// The server's diagnostics are validate's: for every example, every valid
// configuration of the tests and every invalid one, each file the editor
// opens gets exactly the diagnostics neonform validate -json gives of it,
// with the same message, severity and range (counted as the protocol
// counts, in UTF-16 code units).
func TestDiagnosticsEqualValidate(t *testing.T) {
	root := filepath.Join("..", "..")
	var dirs []string
	for _, pattern := range []string{"examples/*", "testdata/config/valid/*"} {
		found, _ := filepath.Glob(filepath.Join(root, pattern))
		dirs = append(dirs, found...)
	}
	invalid, _ := filepath.Glob(filepath.Join(root, "testdata/config/invalid/*.hcl"))
	if len(invalid) < 20 {
		t.Fatalf("found %d invalid configurations: is the test run from its package?", len(invalid))
	}
	for _, file := range invalid { // each is a configuration of its own
		dir := t.TempDir()
		copyFile(t, file, filepath.Join(dir, filepath.Base(file)))
		dirs = append(dirs, dir)
	}
	withDiagnostics := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
		if len(files) == 0 {
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := validateDiagnostics(t, abs)
		if len(want) > 0 {
			withDiagnostics++
		}
		c := lsp.StartServer(t, os.Environ()...)
		got := map[string][]string{}
		for _, f := range files {
			path, _ := filepath.Abs(f)
			for _, d := range c.Open(path) {
				got[path] = append(got[path], describe(d))
			}
		}
		c.Stop()
		for path := range got {
			sort.Strings(got[path])
			sort.Strings(want[path])
		}
		for _, f := range files {
			path, _ := filepath.Abs(f)
			if fmt.Sprint(got[path]) != fmt.Sprint(want[path]) {
				t.Errorf("%s:\nlsp:      %q\nvalidate: %q", f, got[path], want[path])
			}
		}
	}
	if withDiagnostics < len(invalid) {
		t.Errorf("%d configurations had diagnostics, fewer than the %d invalid ones", withDiagnostics, len(invalid))
	}
}

// validateDiagnostics runs neonform validate -json on dir and words each
// diagnostic as describe does, by file; one without a file goes to each file.
func validateDiagnostics(t *testing.T, dir string) map[string][]string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	command.Run([]string{"neonform", "validate", "-json", dir}, nil, &stdout, &stderr)
	var out struct {
		Diagnostics        []diag.JSON `json:"diagnostics"`
		DiagnosticsOmitted int         `json:"diagnostics_omitted"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("validate -json %s: %v\n%s%s", dir, err, stdout.String(), stderr.String())
	}
	if out.DiagnosticsOmitted > 0 {
		t.Fatalf("validate -json %s left out %d diagnostics: use a smaller configuration", dir, out.DiagnosticsOmitted)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	want := map[string][]string{}
	for _, d := range out.Diagnostics {
		severity := protocol.DiagnosticSeverityError
		if d.Severity == "warning" {
			severity = protocol.DiagnosticSeverityWarning
		}
		message := d.Summary
		if d.Detail != "" {
			message += "\n\n" + d.Detail
		}
		if d.Range == nil {
			for _, f := range files {
				want[f] = append(want[f], describe(protocol.Diagnostic{Severity: severity, Message: message}))
			}
			continue
		}
		text, err := os.ReadFile(d.Range.Filename)
		if err != nil {
			t.Fatal(err)
		}
		rng := protocol.Range{Start: lsp.PositionOf(text, d.Range.Start.Byte), End: lsp.PositionOf(text, d.Range.End.Byte)}
		want[d.Range.Filename] = append(want[d.Range.Filename], describe(protocol.Diagnostic{Severity: severity, Message: message, Range: rng}))
	}
	return want
}

func describe(d protocol.Diagnostic) string {
	return fmt.Sprintf("%d:%d-%d:%d %v %s", d.Range.Start.Line, d.Range.Start.Character,
		d.Range.End.Line, d.Range.End.Character, d.Severity, d.Message)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
