package pgcompute_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgserver"
	"github.com/neonform/neonform/internal/pgtest"
)

// BenchmarkFirstQueryKeptDatabase is the first query on a branch whose data an
// earlier run of the emulator kept (-data): a table of 1 or 100,000 rows (an
// integer and a 32-character text; file_MiB is its file's size), restored from its file on the first connection, the cluster already
// running. stop_ms is the emulator's stop after it: the world saved, every
// database opened written to its file, the server stopped.
//
//	go test ./emulator/pgcompute/ -run '^$' -bench FirstQueryKeptDatabase -benchtime 3x
func BenchmarkFirstQueryKeptDatabase(b *testing.B) {
	pgtest.Computes(b)
	bin, err := pgserver.FindBin()
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range []int{1, 100000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) { firstQueryKept(b, bin, rows) })
	}
}

func firstQueryKept(b *testing.B, bin string, rows int) {
	data := filepath.Join(b.TempDir(), "world.json")
	w := newKeptWorld(b, bin, data)
	warm, full := w.project("warm"), w.project("full")
	exec(b, w.connect(full.ConnectionURIs[0].URI), "CREATE TABLE items AS SELECT i, md5(i::text) AS name FROM generate_series(1, $1) AS i", rows)
	w.close()
	var size int64
	if files, _ := filepath.Glob(filepath.Join(pgcompute.KeepDir(data), "*.dump")); len(files) > 0 {
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				size = max(size, st.Size())
			}
		}
	}
	var stops time.Duration
	for b.Loop() {
		b.StopTimer()
		w := newKeptWorld(b, bin, data)
		w.connect(w.uri(warm.Project.ID, warm.Branch.ID, warm.Endpoints[0].ID)) // starts the cluster
		uri := w.uri(full.Project.ID, full.Branch.ID, full.Endpoints[0].ID)
		b.StartTimer()
		firstQuery(b, uri)
		b.StopTimer()
		start := time.Now()
		w.close()
		stops += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(stops.Milliseconds())/float64(b.N), "stop_ms")
	b.ReportMetric(float64(size)/(1<<20), "file_MiB") // after the loop, whose start resets metrics
}
