// Package bench holds the benchmarks that measure neonform against an
// emulator set to the service's own timings; docs/PERFORMANCE.md has their
// figures and the commands that produced them.
package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/fetch"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state"
)

// The service's timings (docs/service.md): operations of about 2 s, 700
// requests a minute for the account with bursts of 40 a second on a route,
// and a round trip of about 30 ms from a CI runner.
const (
	serviceOpDelay   = 2 * time.Second
	serviceLatency   = 30 * time.Millisecond
	servicePerMinute = 700
	serviceBurst     = 40
)

// A world: what every project holds before the measured apply, and what the
// measured apply changes it to.
type world struct {
	name          string
	before, after string
}

var worlds = []world{
	// One resize of each project's primary (idle, as the console leaves a
	// project nobody connects to: apply_config, then suspend_compute).
	{"resize", `compute "primary" { size = 1 }`, `compute "primary" { size = 2 }`},
	// A resize, a create and a delete in each project.
	{"mix", `compute "primary" { size = 1 }
    compute "old" { type = "read_only" }`, `compute "primary" { size = 2 }
    compute "new" { type = "read_only" }`},
}

// How apply is handed the plan, as the CLI hands it.
var modes = []struct {
	name string
	// fresh: the plan was made a moment ago in the same run (apply DIR
	// -auto-approve, destroy -auto-approve), and apply checks it against the
	// plan's own read of the endpoints (apply.Options.PlanRead); otherwise
	// (apply PLANFILE, or after the question) apply reads them again.
	fresh bool
}{{"auto-approve", true}, {"planfile", false}}

// BenchmarkApplyAtServiceTimings applies a plan to 10, 100 and 1,000
// projects against an emulator with the service's timings and rate limits,
// with apply's defaults (no -parallelism), handed over as apply -auto-approve
// and as apply PLANFILE hand it (modes), and reports:
//
//   - wall-s: the apply's wall time;
//   - floor-s: the least time any apply of the same steps could take: the
//     larger of the critical path (the longest project's operations, one
//     after another) and the time the rate limit allows for one mutation and
//     one poll a step;
//   - wall/floor: the goal is 1.2 at most;
//   - req/step: every request of the apply (the reads before it, mutations,
//     polls) per step that calls the service; the goal is 4 at most;
//   - mutations, polls, reads (per step), and the 423 and 429 answers (the
//     goal is no 429, and no 423 but those operations outside the run cause).
//
// The plan's own reads (one a project) are made before the apply in both
// modes, as the CLI makes them before it applies, and are not counted.
//
// The world is set up without the rate limit and without latency (its
// operations take 2 s, so the projects' history says so), then the emulator
// switches to the service's timings for the measured apply. One
// run of 1,000 projects takes several minutes: the rate limit allows about
// 11 requests a second.
func BenchmarkApplyAtServiceTimings(b *testing.B) {
	for _, w := range worlds {
		for _, n := range []int{10, 100, 1000} {
			for _, mode := range modes {
				b.Run(fmt.Sprintf("%s/projects=%d/%s", w.name, n, mode.name), func(b *testing.B) {
					var m measured
					for range b.N {
						m = applyOnce(b, w, n, mode.fresh)
					}
					b.ReportMetric(m.wall.Seconds(), "wall-s")
					b.ReportMetric(m.floor.Seconds(), "floor-s")
					b.ReportMetric(m.wall.Seconds()/m.floor.Seconds(), "wall/floor")
					steps := float64(m.steps)
					b.ReportMetric(float64(m.requests)/steps, "req/step")
					b.ReportMetric(float64(m.mutations)/steps, "mutations/step")
					b.ReportMetric(float64(m.polls)/steps, "polls/step")
					b.ReportMetric(float64(m.reads)/steps, "reads/step")
					b.ReportMetric(float64(m.locked), "423s")
					b.ReportMetric(float64(m.tooMany), "429s")
				})
			}
		}
	}
}

type measured struct {
	wall, floor                       time.Duration
	steps                             int
	requests, mutations, polls, reads int64
	locked, tooMany                   int64
}

func applyOnce(b *testing.B, w world, n int, fresh bool) measured {
	b.StopTimer()
	ctx := context.Background()
	emu, srv, stop := serve(b, emulator.Options{RatePerMinute: -1})
	defer stop()
	// The world is made by operations of the service's time, as a console
	// user's is: the projects' history says how long one takes.
	emu.SetTiming(serviceOpDelay, 0)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-project-%08d", i)
		if _, err := emu.EnsureIdleProject(ids[i], ids[i]); err != nil {
			b.Fatal(err)
		}
	}
	st := state.NewLocal(filepath.Join(b.TempDir(), "neonform.state.json"))
	setup := client(b, srv.URL, emu.APIKey(), -1)
	if _, err := apply.Apply(ctx, plan(b, setup, st, ids, w.before), apply.Options{Client: setup, State: st, Parallelism: 64}); err != nil {
		b.Fatal(err)
	}
	p := plan(b, setup, st, ids, w.after)
	var read map[string][]api.Endpoint
	if fresh {
		read = planRead(b, setup, ids)
	}
	steps := p.APICalls()
	opsBefore := countOps(b, setup, ids)

	emu.SetTiming(serviceOpDelay, serviceLatency)
	emu.SetRateLimit(servicePerMinute, serviceBurst)
	emu.ResetStats()
	c := client(b, srv.URL, emu.APIKey(), 0)
	b.StartTimer()
	start := time.Now()
	if _, err := apply.Apply(ctx, p, apply.Options{Client: c, State: st, PlanRead: read}); err != nil {
		b.Fatal(err)
	}
	wall := time.Since(start)
	b.StopTimer()
	stats := emu.Stats()
	emu.SetTiming(0, 0)
	emu.SetRateLimit(-1, 0)

	critical := time.Duration(0)
	for id, ops := range countOps(b, setup, ids) {
		critical = max(critical, time.Duration(ops-opsBefore[id])*serviceOpDelay)
	}
	byRate := time.Duration(float64(2*steps) / servicePerMinute * float64(time.Minute))
	m := measured{wall: wall, floor: max(critical, byRate), steps: steps, requests: stats.Total,
		locked: stats.Statuses["423"], tooMany: stats.Statuses["429"]}
	for route, k := range stats.Requests {
		switch {
		case !strings.HasPrefix(route, "GET "):
			m.mutations += k
		case strings.Contains(route, "/operations"):
			m.polls += k
		default:
			m.reads += k
		}
	}
	b.StartTimer()
	return m
}

// serve starts an emulator over loopback HTTP; stop ends both.
func serve(b *testing.B, opts emulator.Options) (*emulator.Emulator, *httptest.Server, func()) {
	emu, err := emulator.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(emu.Handler())
	return emu, srv, func() {
		srv.Close()
		emu.Close()
	}
}

// client is a client as neonform builds one (connect.go): paced at the
// service's limits (perMinute 0) or not at all (-1), keeping enough idle
// connections.
func client(b *testing.B, url, key string, perMinute int) *api.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	c, err := api.New(api.Options{BaseURL: url + "/api/v2", APIKey: key, RatePerMinute: perMinute, HTTPClient: &http.Client{Transport: t}})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func plan(b *testing.B, c *api.Client, st *state.Local, ids []string, computes string) *diff.Plan {
	var src strings.Builder
	for i, id := range ids {
		fmt.Fprintf(&src, "project \"p%d\" {\n  id = %q\n  branch \"main\" {\n    %s\n  }\n}\n", i, id, computes)
	}
	cfg, diags := config.LoadSources(b.TempDir(), map[string][]byte{"main.hcl": []byte(src.String())}, config.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	s, err := st.Read(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	live, diags := fetch.Live(context.Background(), c, cfg, s, fetch.Options{Parallelism: 64})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	p, diags := diff.Build(cfg, s, live, diff.Options{Now: time.Now()})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return p
}

// planRead is the projects' endpoints as a plan reads them (summaries, as
// the CLI keeps them for apply.Options.PlanRead), just after the plan.
func planRead(b *testing.B, c *api.Client, ids []string) map[string][]api.Endpoint {
	out := make(map[string][]api.Endpoint, len(ids))
	for _, id := range ids {
		sums, err := c.ListEndpointSummaries(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		out[id] = api.SummaryEndpoints(sums)
	}
	return out
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
