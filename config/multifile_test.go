package config_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files of config/testdata from actual output")

// TestMultiFileDiagnostics loads configurations of several files and wants
// every diagnostic exactly as recorded: order, positions (line, column and
// byte), summary and detail. In multifile, projects use variables and locals
// declared in later files and hold mistakes within a file and between files;
// in multifile_syntax, two files have syntax errors inside project blocks,
// so only those are reported. The projects of each file are parsed and
// decoded after every file's variables and locals (load.go), which must not
// change what is reported or where.
func TestMultiFileDiagnostics(t *testing.T) {
	for _, name := range []string{"multifile", "multifile_syntax"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			_, diags := config.Load(dir, config.Options{})
			got := fullDiagnostics(diags)
			golden := filepath.Join(dir, "diagnostics.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("diagnostics differ from %s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

// fullDiagnostics writes down everything a diagnostic says, ranges to the byte.
func fullDiagnostics(diags diag.Diagnostics) string {
	rng := func(r *hcl.Range) string {
		if r == nil {
			return "-"
		}
		return fmt.Sprintf("%s:%d:%d(%d)-%d:%d(%d)", r.Filename, r.Start.Line, r.Start.Column, r.Start.Byte, r.End.Line, r.End.Column, r.End.Byte)
	}
	var b strings.Builder
	for _, d := range diags {
		d.Word() // as every view words it
		severity := "error"
		if d.Severity == diag.SeverityWarning {
			severity = "warning"
		}
		fmt.Fprintf(&b, "%s: %s\n  at %s\n  context %s\n  %s\n", severity, d.Summary, rng(d.Range), rng(d.Context), d.Detail)
	}
	return b.String()
}
