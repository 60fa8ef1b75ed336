package command

import (
	"bytes"
	"fmt"
	"github.com/neonform/neonform/internal/diag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

func TestDiagnosticsStopAfterFifty(t *testing.T) {
	var diags diag.Diagnostics
	for i := range 60 {
		// A warning first: with too many errors, warnings give way to them.
		if i < 3 {
			diags = append(diags, diag.Diagnostic{Severity: diag.SeverityWarning, Summary: fmt.Sprintf("Warning %d", i)})
		}
		diags = append(diags, diag.Diagnostic{Severity: diag.SeverityError, Summary: fmt.Sprintf("Mistake %d", i)})
	}
	var buf bytes.Buffer
	writeDiagnostics(&buf, diags, nil, false)
	out := buf.String()
	if n := strings.Count(out, "Error: Mistake"); n != 50 {
		t.Errorf("%d errors printed, want 50", n)
	}
	if strings.Contains(out, "Warning") || !strings.Contains(out, "Error: Mistake 49\n") || strings.Contains(out, "Mistake 50") {
		t.Errorf("not the first 50 errors:\n%s", out)
	}
	if !strings.HasSuffix(out, "... and 10 more errors and 3 more warnings, not shown: fix the ones above first (some of the others may follow from them).\n\n") {
		t.Errorf("the count of the rest is missing:\n%s", out[len(out)-300:])
	}

	// validate -json keeps the counts and leaves the same ones out.
	buf.Reset()
	if err := writeValidateJSON(&buf, diags, configArgs{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"error_count": 60`, `"warning_count": 3`, `"diagnostics_omitted": 13`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	if n := strings.Count(buf.String(), `"severity"`); n != 50 {
		t.Errorf("JSON has %d diagnostics, want 50", n)
	}
}

func TestDiagnosticsCutALongLineAroundTheMistake(t *testing.T) {
	src := "locals {\n  x = [" + strings.Repeat("1, ", 5000) + "oops" + strings.Repeat(", 1", 5000) + "]\n}\n"
	start := strings.Index(src, "oops")
	line := hcl.Pos{Line: 2, Column: start - strings.Index(src, "\n"), Byte: start}
	end := line
	end.Byte += 4
	dir := t.TempDir()
	path := filepath.Join(dir, "main.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	writeDiagnostics(&buf, diag.Diagnostics{{
		Severity: diag.SeverityError, Summary: "Unknown variable", Range: &hcl.Range{Filename: path, Start: line, End: end},
	}}, nil, false)
	lines := strings.Split(buf.String(), "\n")
	var quoted, marker string
	for i, l := range lines {
		if strings.HasPrefix(l, "  2 | ") {
			quoted, marker = strings.TrimPrefix(l, "  2 | "), strings.TrimPrefix(lines[i+1], "    | ")
		}
	}
	if n := utf8.RuneCountInString(quoted); n > maxLineWidth+2 || !strings.HasPrefix(quoted, "…") || !strings.HasSuffix(quoted, "…") {
		t.Fatalf("line of %d characters, want at most %d and cut at both ends:\n%s", n, maxLineWidth+2, buf.String())
	}
	col := strings.Index(marker, "^")
	if col < 0 || string([]rune(quoted)[col:col+4]) != "oops" || !strings.HasSuffix(marker, "^^^^") {
		t.Errorf("the marker is not under the mistake:\n%s\n%s", quoted, marker)
	}
}

func TestDiagnosticsCutALongMessage(t *testing.T) {
	value := strings.Repeat("a", 10<<20)
	var buf bytes.Buffer
	writeDiagnostics(&buf, diag.Diagnostics{{
		Severity: diag.SeverityError,
		Summary:  "Invalid compute type " + value,
		Detail:   `type is "read_write" or "read_only", not "` + value + `". Fix the type.`,
	}}, nil, false)
	out := buf.String()
	if len(out) > diag.MaxSummary+diag.MaxDetail+200 {
		t.Errorf("%d bytes printed for one diagnostic", len(out))
	}
	for _, want := range []string{"Error: Invalid compute type aaa", `type is "read_write"`, "characters left out) … ", `aaaa". Fix the type.`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
