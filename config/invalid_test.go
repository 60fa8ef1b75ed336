package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
)

// Each file in testdata/config/invalid holds one kind of mistake. A line that must
// be reported carries "# ERROR: <summary>" (or "# WARNING: <summary>") at its end,
// optionally followed by "# HINT: <text>" that the detail of a diagnostic on that
// line must contain (the fix, or the "did you mean"); a "# VARS: name=value ..."
// line gives -var values. The test loads each file alone and wants exactly the
// marked diagnostics: none missing, none unexpected.
const invalidDir = "../testdata/config/invalid"

var (
	markerPattern = regexp.MustCompile(`#\s*(ERROR|WARNING):\s*([^#]*[^#\s])`)
	hintPattern   = regexp.MustCompile(`#\s*HINT:\s*([^#]*[^#\s])`)
	varsPattern   = regexp.MustCompile(`^#\s*VARS:\s*(.*)$`)
)

func TestInvalidConfigs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(invalidDir, "*.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 30 {
		t.Fatalf("found %d invalid configurations, want at least 30", len(paths))
	}
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".hcl"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, hints, opts := readMarkers(string(src))
			if len(want) == 0 {
				t.Fatalf("%s has no # ERROR: markers", name)
			}
			cfg, diags := config.LoadSources("", map[string][]byte{name: src}, opts)
			if cfg == nil || cfg.Files[name] == nil {
				t.Fatalf("LoadSources returned no parsed file for %s", name)
			}
			var got []string
			for _, d := range diags {
				if d.Range == nil {
					t.Errorf("diagnostic without a source range: %s: %s", d.Summary, d.Detail)
					continue
				}
				if d.Range.Filename != name {
					t.Errorf("diagnostic in %q, want %q: %s", d.Range.Filename, name, d.Summary)
				}
				if strings.TrimSpace(d.Detail) == "" {
					t.Errorf("line %d: %q has no detail saying how to fix it", d.Range.Start.Line, d.Summary)
				}
				got = append(got, marker(d.Range.Start.Line, d.Severity, d.Summary))
			}
			sort.Strings(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics differ from the markers (-want +got):\n%s\nall diagnostics:\n%s", diff, describe(diags))
			}
			for line, texts := range hints {
				for _, text := range texts {
					if !hinted(diags, line, text) {
						t.Errorf("line %d: no diagnostic there says %q:\n%s", line, text, describe(diags))
					}
				}
			}
		})
	}
}

// hinted reports whether a diagnostic starting on line has text in its detail.
func hinted(diags diag.Diagnostics, line int, text string) bool {
	for _, d := range diags {
		d.Word() // a near-miss is a fact (diag.Near) until a view words it
		if d.Range != nil && d.Range.Start.Line == line && strings.Contains(d.Detail, text) {
			return true
		}
	}
	return false
}

// readMarkers returns the sorted "line: SEVERITY: summary" markers of a file, the
// HINT texts by line, and the options its VARS header asks for.
func readMarkers(src string) ([]string, map[int][]string, config.Options) {
	var want []string
	hints := map[int][]string{}
	var opts config.Options
	for i, line := range strings.Split(src, "\n") {
		if m := varsPattern.FindStringSubmatch(line); m != nil {
			opts.Vars = append(opts.Vars, strings.Fields(m[1])...)
			continue
		}
		for _, m := range markerPattern.FindAllStringSubmatch(line, -1) {
			sev := diag.SeverityError
			if m[1] == "WARNING" {
				sev = diag.SeverityWarning
			}
			want = append(want, marker(i+1, sev, m[2]))
		}
		for _, m := range hintPattern.FindAllStringSubmatch(line, -1) {
			hints[i+1] = append(hints[i+1], m[1])
		}
	}
	sort.Strings(want)
	return want, hints, opts
}

func marker(line int, sev diag.Severity, summary string) string {
	s := "ERROR"
	if sev == diag.SeverityWarning {
		s = "WARNING"
	}
	return fmt.Sprintf("%3d: %s: %s", line, s, summary)
}

func describe(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "  %s\n", d.String())
	}
	return b.String()
}
