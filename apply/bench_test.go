package apply

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/fetch"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state"
)

// BenchmarkApply10Projects: 10 projects with 5 changes each (two resizes,
// two creates, one delete), every operation taking 200 ms, applied with
// -parallelism 10. Reported:
//
//   - wall/critical: the apply's wall time divided by its critical path, the
//     longest project's sum of operation times (operations of one project
//     run one after another, so no apply can be faster). The goal is <= 1.2.
//   - own-423s: answers 423 that neonform provoked (no faults are injected,
//     so every 423 is its own). The goal is 0.
//
// The client's rate limiter is off: the service's limit (700 requests a
// minute) would make any apply with 200 ms operations wait for the limiter,
// not for the service, and this measures how apply schedules.
func BenchmarkApply10Projects(b *testing.B) {
	for _, poll := range []time.Duration{50 * time.Millisecond, 20 * time.Millisecond} {
		b.Run(fmt.Sprintf("poll=%s", poll), func(b *testing.B) {
			var ratio, own423 float64
			for range b.N {
				r, n := benchOnce(b, poll)
				ratio = max(ratio, r)
				own423 += float64(n)
			}
			b.ReportMetric(ratio, "wall/critical")
			b.ReportMetric(own423, "own-423s")
		})
	}
}

const benchOpDelay = 200 * time.Millisecond

// benchOnce sets up a world (not timed), applies the changes, and returns
// the ratio of wall time to critical path and the number of 423 answers.
func benchOnce(b *testing.B, poll time.Duration) (float64, int64) {
	b.StopTimer()
	emu, err := emulator.New(emulator.Options{RatePerMinute: -1, OpDelay: benchOpDelay})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(emu.Handler())
	defer func() {
		srv.Close()
		emu.Close()
	}()
	var ids []string
	for i := range 10 {
		id := fmt.Sprintf("bench-project-%08d", i)
		ids = append(ids, id)
		if _, err := emu.EnsureProject(id, id); err != nil {
			b.Fatal(err)
		}
	}
	c, err := api.New(api.Options{BaseURL: srv.URL + "/api/v2", APIKey: emu.APIKey(), RatePerMinute: -1, PollInterval: poll})
	if err != nil {
		b.Fatal(err)
	}
	st := state.NewLocal(filepath.Join(b.TempDir(), "neonform.state.json"))
	before := benchConfig(ids, `compute "primary" { size = 1 }
    compute "a" { type = "read_only" }
    compute "b" { type = "read_only" }
    compute "c" { type = "read_only" }`)
	after := benchConfig(ids, `compute "primary" { size = 2 }
    compute "a" {
      type = "read_only"
      size = 2
    }
    compute "b" { type = "read_only" }
    compute "d" { type = "read_only" }
    compute "e" { type = "read_only" }`)
	opts := Options{Client: c, State: st, Parallelism: 10}
	if _, err := Apply(context.Background(), benchPlan(b, c, st, before), opts); err != nil {
		b.Fatal(err)
	}
	p := benchPlan(b, c, st, after)
	if calls := p.APICalls(); calls != 50 {
		b.Fatalf("the plan has %d API calls, want 5 in each of 10 projects", calls)
	}
	waitIdle(b, c, ids)
	opsBefore := countOps(b, c, ids)
	emu.ResetStats()

	b.StartTimer()
	start := time.Now()
	if _, err := Apply(context.Background(), p, opts); err != nil {
		b.Fatal(err)
	}
	wall := time.Since(start)
	b.StopTimer()

	// Each operation of a project runs after the one before, for OpDelay.
	critical := time.Duration(0)
	for id, n := range countOps(b, c, ids) {
		critical = max(critical, time.Duration(n-opsBefore[id])*benchOpDelay)
	}
	if critical == 0 {
		b.Fatal("the apply started no operation")
	}
	b.StartTimer()
	return float64(wall) / float64(critical), emu.Stats().Statuses["423"]
}

func benchConfig(ids []string, computes string) string {
	var s strings.Builder
	for i, id := range ids {
		fmt.Fprintf(&s, "project \"p%d\" {\n  id = %q\n  branch \"main\" {\n    %s\n  }\n}\n", i, id, computes)
	}
	return s.String()
}

func benchPlan(b *testing.B, c *api.Client, st *state.Local, src string) *diff.Plan {
	cfg, diags := config.LoadSources(b.TempDir(), map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	s, err := st.Read(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	live, diags := fetch.Live(context.Background(), c, cfg, s, fetch.Options{Parallelism: 10})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	p, diags := diff.Build(cfg, s, live, diff.Options{Now: time.Now()})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return p
}

func countOps(b *testing.B, c *api.Client, ids []string) map[string]int {
	out := map[string]int{}
	for _, id := range ids {
		ops, err := c.ListOperations(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		out[id] = len(ops)
	}
	return out
}

func waitIdle(b *testing.B, c *api.Client, ids []string) {
	for _, id := range ids {
		if err := c.WaitProjectIdle(context.Background(), id); err != nil {
			b.Fatal(err)
		}
	}
}
