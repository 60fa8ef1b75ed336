package pgcompute_test

import "testing"

// BenchmarkSQLOverHTTPQuery is one query over SQL over HTTP, as the serverless
// driver sends it, to an active compute, the cluster running: each request opens
// and closes a session of its own, on the Postgres connection an earlier request
// left in the pool (sqlhttp_pool.go):
//
//	go test ./emulator/pgcompute/ -run '^$' -bench 'SQLOverHTTPQuery$' -benchtime 200x -count 3
func BenchmarkSQLOverHTTPQuery(b *testing.B) {
	w := newWorld(b)
	uri := w.project("bench").ConnectionURIs[0].URI
	w.sql(uri, driverHeaders, map[string]any{"query": "SELECT 1"}) // starts the cluster
	for b.Loop() {
		benchQuery(b, w, uri)
	}
}

// BenchmarkSQLOverHTTPQueryNewConnection is the same query when the pool has no
// connection for it (the first request after a restart, untimed): the request
// starts a Postgres backend, as every request did before the pool:
//
//	go test ./emulator/pgcompute/ -run '^$' -bench SQLOverHTTPQueryNewConnection -benchtime 200x -count 3
func BenchmarkSQLOverHTTPQueryNewConnection(b *testing.B) {
	w := newWorld(b)
	p := w.project("bench")
	uri := p.ConnectionURIs[0].URI
	restart := "/projects/" + p.Project.ID + "/endpoints/" + p.Endpoints[0].ID + "/restart"
	w.sql(uri, driverHeaders, map[string]any{"query": "SELECT 1"})
	for b.Loop() {
		b.StopTimer()
		w.call("POST", restart, nil, 200, nil)
		b.StartTimer()
		benchQuery(b, w, uri)
	}
}

func benchQuery(b *testing.B, w *world, uri string) {
	if a := w.sql(uri, driverHeaders, map[string]any{"query": "SELECT $1::int AS n", "params": []any{1}}); a.status != 200 {
		b.Fatalf("status %d: %v", a.status, a.body)
	}
}
