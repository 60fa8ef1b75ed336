package pgcompute_test

import "testing"

// BenchmarkSQLOverHTTPQuery is one query over SQL over HTTP, as the serverless
// driver sends it, to an active compute, the cluster running: each request opens
// a session and a Postgres backend of its own, and closes them with the answer:
//
//	go test ./emulator/pgcompute/ -run '^$' -bench SQLOverHTTPQuery -benchtime 200x -count 3
func BenchmarkSQLOverHTTPQuery(b *testing.B) {
	w := newWorld(b)
	uri := w.project("bench").ConnectionURIs[0].URI
	w.sql(uri, driverHeaders, map[string]any{"query": "SELECT 1"}) // starts the cluster
	for b.Loop() {
		if a := w.sql(uri, driverHeaders, map[string]any{"query": "SELECT $1::int AS n", "params": []any{1}}); a.status != 200 {
			b.Fatalf("status %d: %v", a.status, a.body)
		}
	}
}
