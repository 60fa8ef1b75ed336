package pgcompute_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BenchmarkFirstQueryIdleCompute is the time from connecting to an idle (scaled
// to zero) compute to the answer of its first query, the cluster running:
//
//	go test ./emulator/pgcompute/ -run '^$' -bench FirstQueryIdleCompute -benchtime 20x
func BenchmarkFirstQueryIdleCompute(b *testing.B) {
	w := newWorld(b)
	p := w.project("bench")
	warm := w.connect(p.ConnectionURIs[0].URI) // starts the cluster
	warm.Close(context.Background())
	ep := p.Endpoints[0].ID
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		w.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+ep+"/suspend", nil, 200, nil)
		if s := w.state(p.Project.ID, ep); s != "idle" {
			b.Fatalf("the compute is %s, want idle", s)
		}
		b.StartTimer()
		firstQuery(b, p.ConnectionURIs[0].URI)
	}
}

// BenchmarkFirstQueryNewCluster is the first connection of an emulator: the
// cluster is made (initdb) and started, then the branch's database created:
//
//	go test ./emulator/pgcompute/ -run '^$' -bench FirstQueryNewCluster -benchtime 3x
func BenchmarkFirstQueryNewCluster(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		w := newPrivateWorld(b)
		p := w.project("bench")
		b.StartTimer()
		firstQuery(b, p.ConnectionURIs[0].URI)
		b.StopTimer()
		w.close()
		b.StartTimer()
	}
}

func firstQuery(b *testing.B, uri string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, uri)
	if err != nil {
		b.Fatal(err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	conn.Close(ctx)
	b.StartTimer()
}

// BenchmarkMemoryOf50Computes measures the cluster's memory (the proportional set
// size of its processes, so shared memory is counted once) with 50 computes of 50
// projects: when none has a client (idle_MiB), and with one client connected to each
// (connected_MiB, and per_compute_MiB the difference over 50), and the mean size of a
// database on disk:
//
//	go test ./emulator/pgcompute/ -run '^$' -bench MemoryOf50Computes -benchtime 1x
func BenchmarkMemoryOf50Computes(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		w := newPrivateWorld(b)
		var uris []string
		for i := range 50 {
			uris = append(uris, w.project(fmt.Sprintf("p%d", i)).ConnectionURIs[0].URI)
		}
		var conns []*pgx.Conn
		for _, u := range uris {
			c := w.connect(u)
			if err := alive(c); err != nil {
				b.Fatal(err)
			}
			conns = append(conns, c)
		}
		time.Sleep(200 * time.Millisecond) // the backends settle
		busy := clusterPSS(b, w.proxy.Cluster().Dir())
		for i, c := range conns {
			c.Close(context.Background())
			waitFor(b, func() bool { return w.emu.OpenSessions(w.endpointOf(uris[i])) == 0 })
		}
		time.Sleep(200 * time.Millisecond) // the backends exit
		idle := clusterPSS(b, w.proxy.Cluster().Dir())
		b.ReportMetric(idle, "idle_MiB")
		b.ReportMetric(busy, "connected_MiB")
		b.ReportMetric((busy-idle)/50, "per_compute_MiB")
		b.ReportMetric(databaseDisk(b, w.proxy.Cluster().Dir()), "disk_MiB/database")
		w.close()
		b.StartTimer()
	}
}

// databaseDisk is the mean size on disk, in MiB, of the server's databases.
func databaseDisk(t testing.TB, dir string) float64 {
	t.Helper()
	dbs, err := os.ReadDir(filepath.Join(dir, "data", "base"))
	if err != nil {
		t.Fatal(err)
	}
	var bytes int64
	filepath.WalkDir(filepath.Join(dir, "data", "base"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				bytes += info.Size()
			}
		}
		return nil
	})
	return float64(bytes) / float64(len(dbs)) / (1 << 20)
}

// clusterPSS sums the proportional set size, in MiB, of the server whose
// directory is dir and of its children.
func clusterPSS(t testing.TB, dir string) float64 {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := strconv.Atoi(strings.SplitN(string(raw), "\n", 2)[0])
	pids := []int{root}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range procs {
		stat, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(root) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			pids = append(pids, pid)
		}
	}
	var kb float64
	for _, pid := range pids {
		f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			continue
		}
		s := bufio.NewScanner(f)
		for s.Scan() {
			if v, ok := strings.CutPrefix(s.Text(), "Pss:"); ok {
				n, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
				kb += n
			}
		}
		f.Close()
	}
	return kb / 1024
}
