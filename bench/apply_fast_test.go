package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state"
)

// BenchmarkApply10Projects: 10 projects with 5 changes each (two resizes,
// two creates, one delete), every operation taking 200 ms, applied with
// -parallelism 10 and no rate limit: how apply schedules, apart from the
// budget. Reported:
//
//   - wall/critical: the apply's wall time divided by its critical path, the
//     longest project's sum of operation times (operations of one project
//     run one after another, so no apply can be faster). The goal is <= 1.2.
//   - own-423s: answers 423 that neonform provoked (no faults are injected,
//     so every 423 is its own). The goal is 0.
func BenchmarkApply10Projects(b *testing.B) {
	var ratio, own423 float64
	for range b.N {
		r, n := apply10Once(b)
		ratio = max(ratio, r)
		own423 += float64(n)
	}
	b.ReportMetric(ratio, "wall/critical")
	b.ReportMetric(own423, "own-423s")
}

const fastOpDelay = 200 * time.Millisecond

// apply10Once sets up a world (not timed), applies the changes, and returns
// the ratio of wall time to critical path and the number of 423 answers.
func apply10Once(b *testing.B) (float64, int64) {
	b.StopTimer()
	emu, srv, stop := serve(b, emulator.Options{RatePerMinute: -1, OpDelay: fastOpDelay})
	defer stop()
	var ids []string
	for i := range 10 {
		id := fmt.Sprintf("bench-project-%08d", i)
		ids = append(ids, id)
		if _, err := emu.EnsureProject(id, id); err != nil {
			b.Fatal(err)
		}
	}
	c := client(b, srv.URL, emu.APIKey(), -1)
	st := state.NewLocal(filepath.Join(b.TempDir(), "neonform.state.json"))
	before := `compute "primary" { size = 1 }
    compute "a" { type = "read_only" }
    compute "b" { type = "read_only" }
    compute "c" { type = "read_only" }`
	after := `compute "primary" { size = 2 }
    compute "a" {
      type = "read_only"
      size = 2
    }
    compute "b" { type = "read_only" }
    compute "d" { type = "read_only" }
    compute "e" { type = "read_only" }`
	opts := apply.Options{Client: c, State: st, Parallelism: 10}
	if _, err := apply.Apply(context.Background(), plan(b, c, st, ids, before), opts); err != nil {
		b.Fatal(err)
	}
	p := plan(b, c, st, ids, after)
	if calls := p.APICalls(); calls != 50 {
		b.Fatalf("the plan has %d API calls, want 5 in each of 10 projects", calls)
	}
	for _, id := range ids {
		if err := c.WaitProjectIdle(context.Background(), id); err != nil {
			b.Fatal(err)
		}
	}
	opsBefore := countOps(b, c, ids)
	emu.ResetStats()

	b.StartTimer()
	start := time.Now()
	if _, err := apply.Apply(context.Background(), p, opts); err != nil {
		b.Fatal(err)
	}
	wall := time.Since(start)
	b.StopTimer()

	// Each operation of a project runs after the one before, for its time.
	critical := time.Duration(0)
	for id, n := range countOps(b, c, ids) {
		critical = max(critical, time.Duration(n-opsBefore[id])*fastOpDelay)
	}
	if critical == 0 {
		b.Fatal("the apply started no operation")
	}
	b.StartTimer()
	return float64(wall) / float64(critical), emu.Stats().Statuses["423"]
}
