package filebudget_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/state/filebudget"
)

// The environment of a run BenchmarkThreeBurstsOnOneFile starts: the budget
// file, and when to ask (Unix nanoseconds).
const burstFileEnv, burstAtEnv = "FILEBUDGET_BENCH_FILE", "FILEBUDGET_BENCH_AT"

// The burst of each run, on one route, at the service's limits.
const (
	benchRuns, benchBurst = 3, 15
	benchRoute            = "POST /projects/{}/endpoints"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(burstFileEnv); path != "" {
		os.Exit(burstRun(path))
	}
	os.Exit(m.Run())
}

// BenchmarkThreeBurstsOnOneFile: three runs, each a process of its own as
// runs are, share one file at the service's limits, and each asks for a
// burst of 15 requests of one route at the same instant, as an apply
// creating in 15 projects does: 45 where a second of the route holds 40.
// Each ask is asked again after the wait it is told, and answered as soon
// as it is taken. It reports how long each run took until its whole burst
// was taken: the mean, the best and the worst of the three (the worst is
// when all 45 were); how many of the three were told to wait (the least is
// one: 45 do not fit the route's second); and how many started late, after
// the instant (their figures then count from when they started).
//
// "busy" is the same in a minute that holds 600 other requests already
// (answered, on 15 other routes): a turn of the file's lock then reads and
// writes them all, and lasts long enough for the runs' turns to interleave.
func BenchmarkThreeBurstsOnOneFile(b *testing.B) {
	b.Run("unused", func(b *testing.B) { benchThreeBursts(b, 0) })
	b.Run("busy", func(b *testing.B) { benchThreeBursts(b, 600) })
}

// benchThreeBursts is BenchmarkThreeBurstsOnOneFile in a file that holds
// spent requests already.
func benchThreeBursts(b *testing.B, spent int) {
	var sum, best, worst time.Duration
	waited, late := 0, 0
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "budget.json")
		fill(b, path, spent)
		at := time.Now().Add(time.Second)
		outs := make([][]byte, benchRuns)
		var wg sync.WaitGroup
		for r := range benchRuns {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), burstFileEnv+"="+path, burstAtEnv+"="+strconv.FormatInt(at.UnixNano(), 10))
			wg.Go(func() {
				var err error
				if outs[r], err = cmd.Output(); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		var finished []time.Duration
		for _, out := range outs {
			var ns int64
			var told, wasLate bool
			if _, err := fmt.Sscan(string(out), &ns, &told, &wasLate); err != nil {
				b.Fatalf("a run's figures %q: %v", out, err)
			}
			finished = append(finished, time.Duration(ns))
			sum += time.Duration(ns)
			waited += boolInt(told)
			late += boolInt(wasLate)
		}
		best += slices.Min(finished)
		worst += slices.Max(finished)
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64(sum/(n*benchRuns))/1e6, "ms/run")
	b.ReportMetric(float64(best/n)/1e6, "ms-best-run")
	b.ReportMetric(float64(worst/n)/1e6, "ms-worst-run")
	b.ReportMetric(float64(waited)/float64(b.N), "runs-waited")
	b.ReportMetric(float64(late)/float64(b.N), "runs-late")
}

// burstRun is one run of BenchmarkThreeBurstsOnOneFile: at the instant, it
// asks for its burst and prints how long until the whole burst was taken,
// whether an ask was told to wait, and whether it started late.
func burstRun(path string) int {
	atNS, err := strconv.ParseInt(os.Getenv(burstAtEnv), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	budget := filebudget.Open(path, api.Limits{PerMinute: 700, PerRoute: 40, Minute: time.Minute}, func(msg string) { fmt.Fprintln(os.Stderr, msg) })
	defer budget.Close()
	ready := make(chan struct{})
	var mu sync.Mutex
	var wg sync.WaitGroup
	told := false
	for range benchBurst {
		wg.Go(func() {
			<-ready
			for {
				done, wait, err := budget.Spend(context.Background(), benchRoute)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					return
				}
				if done != nil {
					done()
					return
				}
				mu.Lock()
				told = true
				mu.Unlock()
				time.Sleep(wait)
			}
		})
	}
	start := time.Unix(0, atNS)
	wasLate := time.Now().After(start)
	if wasLate {
		start = time.Now()
	}
	time.Sleep(time.Until(start))
	close(ready)
	wg.Wait()
	fmt.Println(int64(time.Since(start)), told, wasLate)
	return 0
}

// fill spends and answers n requests in the file at path, 40 a route.
func fill(b *testing.B, path string, n int) {
	budget := filebudget.Open(path, api.Limits{PerMinute: 700, PerRoute: 40, Minute: time.Minute}, func(msg string) { b.Fatal(msg) })
	defer budget.Close()
	for i := range n {
		done, wait, err := budget.Spend(context.Background(), fmt.Sprintf("GET /other%d", i/40))
		if done == nil || err != nil {
			b.Fatalf("filling the file: request %d waits %s, %v", i, wait, err)
		}
		done()
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
