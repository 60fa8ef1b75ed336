package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestLoadByFileMatchesLoad loads every configuration in testdata and the
// examples both ways, a file at a time (loadByFile) and all files at once
// (load), and wants the same model and the same diagnostics to the byte. The
// configurations without syntax errors must be read a file at a time.
func TestLoadByFileMatchesLoad(t *testing.T) {
	configs := testConfigs(t)
	if len(configs) < 40 {
		t.Fatalf("found %d configurations, want at least 40", len(configs))
	}
	byFile := 0
	for _, files := range configs {
		if compareLoads(t, files) {
			byFile++
		}
	}
	// The invalid configurations with syntax errors (a few) are read at once.
	t.Logf("%d of %d configurations read a file at a time", byFile, len(configs))
	if byFile < len(configs)-10 {
		t.Errorf("only %d of %d configurations were read a file at a time", byFile, len(configs))
	}
}

// FuzzLoadByFileMatchesLoad is TestLoadByFileMatchesLoad on arbitrary bytes,
// as a file beside one that declares a variable and a local, so that what
// the scanner takes for the top level is checked against hcl.
//
//	go test ./config/ -run '^$' -fuzz FuzzLoadByFileMatchesLoad -fuzztime 2m
func FuzzLoadByFileMatchesLoad(f *testing.F) {
	for _, files := range testConfigs(f) {
		for _, src := range files {
			f.Add(src)
		}
	}
	common := []byte("variable \"cu\" {\n  default = 1\n}\n\nlocals {\n  suffix = \"x\"\n}\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		compareLoads(t, map[string][]byte{"a.hcl": src, "common.hcl": common})
	})
}

// testConfigs are the configurations in testdata and the examples, each as
// its files by name.
func testConfigs(tb testing.TB) []map[string][]byte {
	var configs []map[string][]byte
	dirs, _ := filepath.Glob("../testdata/config/valid/*")
	examples, _ := filepath.Glob("../examples/*")
	multi, _ := filepath.Glob("testdata/multifile*")
	invalid, _ := filepath.Glob("../testdata/config/invalid/*.hcl")
	for _, pattern := range slices.Concat(dirs, examples, multi, invalid) {
		if !strings.HasSuffix(pattern, ".hcl") {
			pattern = filepath.Join(pattern, "*.hcl")
		}
		paths, _ := filepath.Glob(pattern)
		files := map[string][]byte{}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			files[filepath.Base(p)] = src
		}
		if len(files) > 0 {
			configs = append(configs, files)
		}
	}
	return configs
}

// compareLoads loads files both ways, in full and with
// Options.SettingsOnly, and reports whether loadByFile read them.
func compareLoads(t *testing.T, files map[string][]byte) bool {
	t.Helper()
	return compareLoadsWith(t, files, false) && compareLoadsWith(t, files, true)
}

func compareLoadsWith(t *testing.T, files map[string][]byte, settingsOnly bool) bool {
	t.Helper()
	load := func(byFile bool) (*Config, hcl.Diagnostics, bool) {
		b := newBudget()
		for _, src := range files {
			b.take(len(src))
		}
		l := newLoader("dir", Options{Environ: []string{"NEONFORM_VAR_cu=2"}, SettingsOnly: settingsOnly}, b)
		ok := byFile && l.loadByFile(files)
		if !byFile {
			l.load(files)
		}
		cfg, diags := l.finish()
		return cfg, diags, ok
	}
	atOnce, want, _ := load(false)
	byFile, got, ok := load(true)
	if !ok {
		return false
	}
	if diff := cmp.Diff(diagnosticLines(want), diagnosticLines(got)); diff != "" {
		t.Errorf("%s (settings only: %v): diagnostics differ (-at once +by file):\n%s", names(files), settingsOnly, diff)
	}
	atOnce.Files, byFile.Files = nil, nil
	sortRanges(atOnce)
	sortRanges(byFile)
	if diff := cmp.Diff(atOnce, byFile, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("%s (settings only: %v): the models differ (-at once +by file):\n%s", names(files), settingsOnly, diff)
	}
	return true
}

func names(files map[string][]byte) string {
	return strings.Join(sortedNames(files), ", ")
}

func diagnosticLines(diags hcl.Diagnostics) []string {
	var lines []string
	for _, d := range diags {
		detail := d.Detail
		if d.Summary == "Call to unknown function" {
			// hcl suggests the first close name in the order of a map, so
			// one load may say "pow" where the next says "log".
			detail, _, _ = strings.Cut(detail, " Did you mean")
		}
		lines = append(lines, fmt.Sprintf("%d %s %v %v %s", d.Severity, d.Summary, d.Subject, d.Context, detail))
	}
	return lines
}

// sortRanges orders the ranges of every compute by attribute: decodeCompute
// records them in the order of a map, which differs from one load to the next.
func sortRanges(cfg *Config) {
	sortList := func(cs []*Compute) {
		for _, c := range cs {
			slices.SortFunc(c.Ranges.list, func(a, b namedRange) int { return strings.Compare(a.attr, b.attr) })
		}
	}
	for _, p := range cfg.Projects {
		for _, b := range p.Branches {
			sortList(b.Computes)
		}
		for _, r := range p.Rules {
			sortList(r.Computes)
		}
	}
}
