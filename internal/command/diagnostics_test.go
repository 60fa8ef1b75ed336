package command

import (
	"bytes"
	"github.com/neonform/neonform/internal/diag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
)

const diagSrc = `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
	compute "primary" {
	  max_cu = 3.5
	}
  }
}
`

// diagAt makes an error diagnostic covering the first occurrence of text in diagSrc.
func diagAt(t *testing.T, text string) diag.Diagnostic {
	t.Helper()
	start := strings.Index(diagSrc, text)
	if start < 0 {
		t.Fatalf("%q not in source", text)
	}
	pos := func(off int) hcl.Pos {
		line := strings.Count(diagSrc[:off], "\n") + 1
		col := off - strings.LastIndex(diagSrc[:off], "\n")
		return hcl.Pos{Line: line, Column: col, Byte: off}
	}
	return diag.Diagnostic{
		Severity: diag.SeverityError,
		Summary:  "Unsupported compute size",
		Detail:   "3.5 CU is not a size the service offers. The nearest are 3 and 4.",
		Range:    &hcl.Range{Filename: "main.hcl", Start: pos(start), End: pos(start + len(text))},
	}
}

func parsedFiles(t *testing.T) map[string]*hcl.File {
	t.Helper()
	f, diags := config.Parse([]byte(diagSrc), "main.hcl")
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	return map[string]*hcl.File{"main.hcl": f}
}

func TestDiagnosticsShowPlaceLineMarkerAndFix(t *testing.T) {
	var buf bytes.Buffer
	writeDiagnostics(&buf, diag.Diagnostics{diagAt(t, "3.5")}, parsedFiles(t), false)
	// The source uses tabs: the marker keeps them so the carets sit under "3.5".
	want := "Error: Unsupported compute size\n" +
		"\n" +
		"  on main.hcl:5:13, in project \"shop\", branch \"main\", compute \"primary\":\n" +
		"  5 | \t  max_cu = 3.5\n" +
		"    | \t           ^^^\n" +
		"\n" +
		"  3.5 CU is not a size the service offers. The nearest are 3 and 4.\n" +
		"\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDiagnosticsReadSourceFromDiskWhenNotGiven(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("main.hcl", []byte(diagSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	writeDiagnostics(&buf, diag.Diagnostics{diagAt(t, "max_cu")}, nil, false)
	if !strings.Contains(buf.String(), "  5 | \t  max_cu = 3.5\n    | \t  ^^^^^^\n") {
		t.Errorf("source line or marker missing:\n%s", buf.String())
	}
}

func TestDiagnosticsWithoutRangeOrSource(t *testing.T) {
	var buf bytes.Buffer
	missing := diagAt(t, "3.5")
	missing.Range.Filename = "gone.hcl"
	writeDiagnostics(&buf, diag.Diagnostics{
		{Severity: diag.SeverityWarning, Summary: "No computes", Detail: "Add a compute block."},
		missing,
	}, nil, false)
	want := "Warning: No computes\n\n  Add a compute block.\n\n" +
		"Error: Unsupported compute size\n\n  on gone.hcl:5:13:\n\n" +
		"  3.5 CU is not a size the service offers. The nearest are 3 and 4.\n\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

func TestDiagnosticsColour(t *testing.T) {
	var plain, colour bytes.Buffer
	diags := diag.Diagnostics{diagAt(t, "3.5")}
	writeDiagnostics(&plain, diags, parsedFiles(t), false)
	writeDiagnostics(&colour, diags, parsedFiles(t), true)
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("colour codes without colour: %q", plain.String())
	}
	if !strings.Contains(colour.String(), ansiRed) {
		t.Errorf("no red in coloured error: %q", colour.String())
	}
	stripped := strings.NewReplacer(ansiRed, "", ansiYellow, "", ansiBold, "", ansiReset, "").Replace(colour.String())
	if stripped != plain.String() {
		t.Errorf("colour changed the text:\n%q\nvs\n%q", stripped, plain.String())
	}
}

// A diagnostic found at plan time, after config.Load dropped the syntax trees
// of a configuration without diagnostics, still shows its source line and
// names its enclosing blocks, from the file's bytes (not from disk: the
// files here exist only in memory).
func TestDiagnosticsAfterLoadDroppedTheSyntaxTrees(t *testing.T) {
	src := "project \"shop\" {\n  id = \"dark-sun-46453911\"\n  branch \"main\" {\n    compute \"primary\" {\n      min_cu = 1\n      max_cu = 4\n    }\n  }\n}\n"
	cfg, diags := config.LoadSources("cfg", map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
	if len(diags) > 0 {
		t.Fatal(diags.String())
	}
	name := filepath.Join("cfg", "main.hcl")
	if f := cfg.Files[name]; f == nil || f.Body != nil || string(f.Bytes) != src {
		t.Fatalf("want the file's bytes without its syntax tree, got %+v", f)
	}
	r := cfg.Projects[0].Branches[0].Computes[0].Range("max_cu")
	var buf bytes.Buffer
	writeDiagnostics(&buf, diag.Diagnostics{{Severity: diag.SeverityError, Summary: "Restart not allowed", Range: &r}}, cfg.Files, false)
	want := "Error: Restart not allowed\n\n" +
		"  on " + name + ":6:7, in project \"shop\", branch \"main\", compute \"primary\":\n" +
		"  6 |       max_cu = 4\n" +
		"    |       ^^^^^^^^^^\n\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A configuration file's text and a diagnostic that quotes a value are
// shown escaped: a comment holding terminal controls cannot erase the
// lines around it, and the marker still sits under the mistake.
func TestDiagnosticsShowTheFilesTextEscaped(t *testing.T) {
	src := "project \"shop\" {\n  branch \"main\" {\n\tcompute \"primary\" {\n\t  /* \x1b[2K\u202e\x00 */ max_cu = 3.5\n\t}\n  }\n}\n"
	start := strings.Index(src, "3.5")
	line := strings.Count(src[:start], "\n") + 1
	col := start - strings.LastIndex(src[:start], "\n")
	d := diag.Diagnostic{
		Severity: diag.SeverityError,
		Summary:  "Unsupported compute size in " + textsafetest.Name,
		Range: &hcl.Range{Filename: "main.hcl",
			Start: hcl.Pos{Line: line, Column: col, Byte: start}, End: hcl.Pos{Line: line, Column: col + 3, Byte: start + 3}},
	}
	var buf bytes.Buffer
	writeDiagnostics(&buf, diag.Diagnostics{d}, map[string]*hcl.File{"main.hcl": {Bytes: []byte(src)}}, false)
	out := buf.String()
	textsafetest.Terminal(t, "a diagnostic", out)
	want := "  4 | \t  /* \\x1b[2K\\u202e\\x00 */ max_cu = 3.5\n" +
		"    | \t" + strings.Repeat(" ", len(`  /* \x1b[2K\u202e\x00 */ max_cu = `)) + "^^^\n"
	if !strings.Contains(out, want) {
		t.Errorf("want the line escaped and the marker under 3.5:\n%s\nin:\n%s", want, out)
	}
}

// A diagnostic about a compute has no source line to quote: it names the
// compute and the plan file it was found in.
func TestDiagnosticOfAnAddress(t *testing.T) {
	var buf bytes.Buffer
	d := diag.AtAddress("shop.main.primary", "Plan file edited", "Make a new one.")
	d.PlanFile = "plan.json"
	writeDiagnostics(&buf, diag.Diagnostics{d}, nil, false)
	want := "Error: Plan file edited\n\n  on shop.main.primary in plan.json\n\n  Make a new one.\n\n"
	if buf.String() != want {
		t.Errorf("got\n%q\nwant\n%q", buf.String(), want)
	}
}
