package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/config"
)

// writeLargeConfig writes a configuration of projects x 10 computes (two branches
// of five: a primary and four replicas) spread over ten files, using variables,
// locals and functions as a real one does. It returns the directory.
func writeLargeConfig(tb testing.TB, projects int) string {
	tb.Helper()
	dir := tb.TempDir()
	common := `variable "replica_cu" {
  type    = number
  default = 1
}

locals {
  pg_common = { work_mem = "64MB", statement_timeout = "60s" }
  suspend   = "10m"
}
`
	if err := os.WriteFile(filepath.Join(dir, "common.hcl"), []byte(common), 0o600); err != nil {
		tb.Fatal(err)
	}
	const files = 10
	for f := 0; f < files; f++ {
		var b strings.Builder
		for p := f; p < projects; p += files {
			fmt.Fprintf(&b, "project \"p%d\" {\n  id = \"project-%08d\"\n", p, p)
			for _, branch := range []string{"main", "staging"} {
				fmt.Fprintf(&b, "  branch %q {\n", branch)
				b.WriteString("    compute \"primary\" {\n      min_cu          = 0.25\n      max_cu          = 4\n" +
					"      suspend_timeout = local.suspend\n      pg_settings     = local.pg_common\n" +
					"      lifecycle {\n        prevent_destroy = true\n      }\n    }\n")
				for r := 1; r <= 4; r++ {
					fmt.Fprintf(&b, "    compute \"replica%d\" {\n      type        = \"read_only\"\n      size        = var.replica_cu\n"+
						"      name        = format(\"%%s-replica-%d\", %q)\n      pg_settings = merge(local.pg_common, { work_mem = \"128MB\" })\n    }\n",
						r, r, branch)
				}
				b.WriteString("  }\n")
			}
			b.WriteString("}\n\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("projects%d.hcl", f)), []byte(b.String()), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkLoadLarge loads and validates 1,000 projects x 10 computes from disk.
// Goal: under 1 s of CPU per load (cpu-ms/op, which counts every thread,
// the garbage collector's included). Recorded in docs/PERFORMANCE.md.
//
//	go test ./config/ -run '^$' -bench BenchmarkLoadLarge -benchmem -count 5
func BenchmarkLoadLarge(b *testing.B) {
	dir := writeLargeConfig(b, 1000)
	cpuBefore := processCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cfg, diags := config.Load(dir, config.Options{})
		if diags.HasErrors() {
			b.Fatal(diags.String())
		}
		if n := len(cfg.Computes()); n != 10000 {
			b.Fatalf("%d computes, want 10000", n)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU(b)-cpuBefore).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkParseLarge is only hcl's parser on the files of BenchmarkLoadLarge:
// the share of a load that neonform's own code cannot change.
//
//	go test ./config/ -run '^$' -bench BenchmarkParseLarge -benchmem -benchtime 10x
func BenchmarkParseLarge(b *testing.B) {
	dir := writeLargeConfig(b, 1000)
	paths, err := filepath.Glob(filepath.Join(dir, "*.hcl"))
	if err != nil {
		b.Fatal(err)
	}
	sources := make([][]byte, len(paths))
	for i, p := range paths {
		if sources[i], err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
	}
	cpuBefore := processCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, src := range sources {
			if _, diags := hclsyntax.ParseConfig(src, paths[i], hcl.InitialPos); diags.HasErrors() {
				b.Fatal(diags.Error())
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU(b)-cpuBefore).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// processCPU is the user and system CPU time the process has used so far.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestLargeConfigLoads keeps the benchmark's generator honest in every test run,
// on a smaller configuration: it must load without errors and with every compute.
func TestLargeConfigLoads(t *testing.T) {
	cfg, diags := config.Load(writeLargeConfig(t, 20), config.Options{})
	if len(diags) > 0 {
		t.Fatal(describe(diags))
	}
	if n := len(cfg.Computes()); n != 200 {
		t.Errorf("%d computes, want 200", n)
	}
	c := cfg.Compute("p7.staging.replica3")
	if c == nil || c.Name != "staging-replica-3" || c.PgSettings["work_mem"] != "128MB" || c.MaxCU != 1 {
		t.Errorf("p7.staging.replica3 = %+v", c)
	}
}

// writePlanShapedConfig writes what BenchmarkPlanLarge (package main) plans:
// projects of one branch holding a primary and 9 replicas, all literals, in
// files of 100 projects (65 KB each).
func writePlanShapedConfig(tb testing.TB, projects int) string {
	tb.Helper()
	dir := tb.TempDir()
	const perFile = 100
	var b strings.Builder
	for p := range projects {
		fmt.Fprintf(&b, "project \"p%d\" {\n  id = \"bench-%08d\"\n\n  branch \"main\" {\n", p, p)
		b.WriteString("    compute \"primary\" {\n      min_cu = 0.25\n      max_cu = 2\n    }\n")
		for c := 1; c < 10; c++ {
			fmt.Fprintf(&b, "    compute \"replica%d\" {\n      type = \"read_only\"\n    }\n", c)
		}
		b.WriteString("  }\n}\n\n")
		if (p+1)%perFile == 0 || p == projects-1 {
			name := fmt.Sprintf("projects-%05d.hcl", p/perFile*perFile)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o600); err != nil {
				tb.Fatal(err)
			}
			b.Reset()
		}
	}
	return dir
}

// BenchmarkLoadPeak loads the configuration of BenchmarkPlanLarge (10,000
// projects x 10 computes, 100 files, 6.5 MB) and reports the live heap at its
// highest while it loads (peak-live-MB: the garbage collector runs at
// GOGC=5 meanwhile, so what it finds live after each cycle is close to the
// peak) and what the loaded configuration keeps (kept-MB). Its CPU is not
// the load's (the collector runs far more often): see BenchmarkLoadLarge.
//
//	go test ./config/ -run '^$' -bench BenchmarkLoadPeak -benchtime 3x
func BenchmarkLoadPeak(b *testing.B) {
	dir := writePlanShapedConfig(b, 10000)
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	var peak, kept uint64
	for b.Loop() {
		runtime.GC()
		before := liveHeap()
		done := make(chan uint64)
		stop := make(chan struct{})
		go func() {
			var most uint64
			for {
				most = max(most, liveHeap())
				select {
				case <-stop:
					done <- most
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		cfg, diags := config.Load(dir, config.Options{})
		close(stop)
		most := <-done
		if diags.HasErrors() {
			b.Fatal(diags.String())
		}
		runtime.GC()
		if n := len(cfg.Computes()); n != 100000 {
			b.Fatalf("%d computes, want 100000", n)
		}
		peak = max(peak, most-min(most, before))
		k := liveHeap()
		kept = max(kept, k-min(k, before))
		runtime.KeepAlive(cfg)
	}
	b.ReportMetric(float64(peak)/1e6, "peak-live-MB")
	b.ReportMetric(float64(kept)/1e6, "kept-MB")
}

// liveHeap is the heap the garbage collector found live at the end of its last cycle.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
