package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/config"
)

// writeComputes writes a configuration of projects x 10 computes (two
// branches of a primary and four replicas, with a variable, locals and
// functions), a file per ten projects, and returns its directory.
func writeComputes(tb testing.TB, projects int) string {
	tb.Helper()
	dir := tb.TempDir()
	common := "variable \"replica_cu\" {\n  type    = number\n  default = 1\n}\n\n" +
		"locals {\n  pg_common = { work_mem = \"64MB\" }\n  suspend   = \"10m\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "common.hcl"), []byte(common), 0o600); err != nil {
		tb.Fatal(err)
	}
	for f := 0; f*10 < projects; f++ {
		var b strings.Builder
		for p := f * 10; p < min(projects, f*10+10); p++ {
			fmt.Fprintf(&b, "project \"p%d\" {\n  id = \"project-%08d\"\n", p, p)
			for _, branch := range []string{"main", "staging"} {
				fmt.Fprintf(&b, "  branch %q {\n    compute \"primary\" {\n      min_cu          = 0.25\n      max_cu          = 4\n"+
					"      suspend_timeout = local.suspend\n      pg_settings     = local.pg_common\n    }\n", branch)
				for r := 1; r <= 4; r++ {
					fmt.Fprintf(&b, "    compute \"replica%d\" {\n      type = \"read_only\"\n      size = var.replica_cu\n"+
						"      name = format(\"%%s-r%d\", %q)\n    }\n", r, r, branch)
				}
				b.WriteString("  }\n")
			}
			b.WriteString("}\n\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("projects%02d.hcl", f)), []byte(b.String()), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkDiagnosticsAfterEdit is an edit of one file of a 1,000-compute
// directory (100 projects x 10 computes, 11 files) to its diagnostics, as an
// editor sees it: didChange sent, publishDiagnostics received, over pipes.
// Goal: under 200 ms (docs/PERFORMANCE.md). cpu-ms/op is the process's
// CPU time (getrusage: every thread, the garbage collector's included) per
// edit, which a loaded machine does not stretch as it does the wall time.
//
//	go test ./internal/lsp -run '^$' -bench BenchmarkDiagnosticsAfterEdit -benchmem -count 5
func BenchmarkDiagnosticsAfterEdit(b *testing.B) {
	dir := writeComputes(b, 100)
	path := filepath.Join(dir, "projects05.hcl")
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	c := startServer(b)
	if d := c.Open(path); len(d) != 0 {
		b.Fatalf("diagnostics: %v", d)
	}
	edits := []string{strings.Replace(string(text), "max_cu          = 4", "max_cu          = 2.7", 1), string(text)}
	version := int32(1)
	b.ReportAllocs()
	var before syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &before); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		version++
		d := c.Change(path, version, edits[version%2])
		if want := 1 - int(version%2); len(d) != want { // 2.7 is one error
			b.Fatalf("%d diagnostics after edit %d, want %d", len(d), version, want)
		}
	}
	b.StopTimer()
	var after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &after); err != nil {
		b.Fatal(err)
	}
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	c.Stop()
}

// The benchmark's generator makes what it says, in every test run.
func TestComputesGenerated(t *testing.T) {
	cfg, diags := config.Load(writeComputes(t, 12), config.Options{})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if n := len(cfg.Computes()); n != 120 {
		t.Errorf("%d computes, want 120", n)
	}
}
