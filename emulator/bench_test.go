package emulator

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

// The goal (docs/PERFORMANCE.md): with 1,000 projects of 10 endpoints, list
// endpoints at 5,000 requests a second or more over loopback HTTP on the 2-core
// development machine, holding the 10,000 endpoints in under 200 MB.
const (
	benchProjects  = 1000
	benchEndpoints = 10 // per project: the primary and 9 replicas
)

// loadBenchWorld fills an emulator as the API would: each project made by
// newProject, its replicas by createEndpointLocked, every operation finished.
func loadBenchWorld(tb testing.TB, opts Options) (*Emulator, []string) {
	tb.Helper()
	clock := NewFakeClock(t0)
	opts.Clock, opts.RatePerMinute = clock, -1
	e, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ids := make([]string, 0, benchProjects)
	owner := e.w.firstUser
	for i := range benchProjects {
		now := clock.Now()
		created, err := e.newProject(projectSpec{name: fmt.Sprintf("bench-%d", i), ownerID: owner, tier: "paid", creationSource: "api",
			region: defaultRegion, pgVersion: defaultPgVersion, retention: defaultRetention, branchName: "main", compute: defaultCompute()}, now)
		if err != nil {
			tb.Fatal(err)
		}
		p := e.w.project(created.Project.ID)
		p.mu.Lock()
		for j := 1; j < benchEndpoints; j++ {
			spec := defaultCompute()
			spec.branchID, spec.typ, spec.name = created.Branch.ID, api.EndpointTypeReadOnly, fmt.Sprintf("replica-%d", j)
			spec.minCU, spec.maxCU, spec.pgSettings = 0.25, 2, map[string]string{"work_mem": "64MB"}
			if _, err := e.createEndpointLocked(p, nil, spec, now); err != nil {
				tb.Fatal(err)
			}
		}
		p.mu.Unlock()
		ids = append(ids, p.ID)
	}
	clock.Advance(time.Minute)
	return e, ids
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkListEndpoints measures GET /projects/{id}/endpoints over loopback HTTP
// with many clients at once, each on a random project of the loaded world. The
// clients run in the same process, so they share the 2 cores with the server:
// the figure is what one machine serves to itself, a lower bound for the server.
//
//	go test ./emulator/ -run '^$' -bench BenchmarkListEndpoints -benchtime 100000x -count 3
func BenchmarkListEndpoints(b *testing.B) {
	before := heapInUse()
	e, ids := loadBenchWorld(b, Options{})
	held := heapInUse() - before
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	transport := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	key := "Bearer " + e.APIKey()

	var next atomic.Uint64
	var bytesRead atomic.Int64
	b.SetParallelism(16) // 32 clients at once on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := ids[next.Add(7919)%uint64(len(ids))]
			req, _ := http.NewRequest("GET", srv.URL+"/api/v2/projects/"+id+"/endpoints", nil)
			req.Header.Set("Authorization", key)
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
			bytesRead.Add(n)
		}
	})
	elapsed := time.Since(start)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(bytesRead.Load())/float64(b.N), "B/answer")
	b.ReportMetric(float64(held)/(1<<20), "MB-world")
	runtime.KeepAlive(e)
}

// BenchmarkWorldMemory measures the heap the loaded world holds (1,000 projects of
// 10 endpoints, with their branches and operations), after garbage collection.
//
//	go test ./emulator/ -run '^$' -bench BenchmarkWorldMemory -benchtime 3x
func BenchmarkWorldMemory(b *testing.B) {
	for range b.N {
		before := heapInUse()
		e, _ := loadBenchWorld(b, Options{})
		held := heapInUse() - before
		b.ReportMetric(float64(held)/(1<<20), "MB-world")
		runtime.KeepAlive(e)
	}
}

// BenchmarkSaveWorld measures writing the data file of the loaded world, which
// -data does after every change: the cost a mutation pays on a large world.
//
//	go test ./emulator/ -run '^$' -bench BenchmarkSaveWorld -benchtime 20x
func BenchmarkSaveWorld(b *testing.B) {
	e, _ := loadBenchWorld(b, Options{DataFile: b.TempDir() + "/world.json"})
	b.ResetTimer()
	for range b.N {
		if err := e.save(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	info, err := os.Stat(e.opts.DataFile)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(info.Size())/(1<<20), "MB-file")
}
