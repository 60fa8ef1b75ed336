package pgcompute_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

// value runs a query over HTTP as the driver does and returns its first value, as text.
func (w *world) value(uri, query string, params ...any) string {
	w.t.Helper()
	if params == nil {
		params = []any{}
	}
	rows := w.sql(uri, driverHeaders, map[string]any{"query": query, "params": params}).ok(w.t)["rows"].([]any)
	if len(rows) == 0 {
		w.t.Fatalf("%s: no rows", query)
	}
	v, _ := rows[0].([]any)[0].(string)
	return v
}

// backendGone waits until no backend of the cluster has pid, asking over HTTP
// through uri (a compute of the same cluster).
func (w *world) backendGone(uri, pid string) {
	w.t.Helper()
	waitFor(w.t, func() bool { return w.value(uri, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid) == "0" })
}

// A request's connection serves the next request, reset: what the first set is
// gone, and the session the first opened is closed (the compute may suspend).
func TestSQLOverHTTPKeepsItsConnectionReset(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	uri, ep := p.ConnectionURIs[0].URI, p.Endpoints[0].ID
	first := w.value(uri, "SELECT pg_backend_pid()")
	w.value(uri, "SELECT set_config('statement_timeout', '4321ms', false)")
	if got := w.value(uri, "SELECT pg_backend_pid()"); got != first {
		t.Errorf("the second request ran on backend %s, want the first's, %s, kept", got, first)
	}
	if got := w.value(uri, "SHOW statement_timeout"); got != "0" {
		t.Errorf("a later request sees statement_timeout %s set by an earlier one, want it reset to 0", got)
	}
	if n := w.emu.OpenSessions(ep); n != 0 {
		t.Errorf("%d sessions open between requests, want 0", n)
	}
}

// A kept connection closes when its compute's run ends: a restart, a change of
// its settings (the next request has them), a suspend on its own, its deletion.
func TestSQLOverHTTPRunEndClosesKeptConnections(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	uri, ep := p.ConnectionURIs[0].URI, p.Endpoints[0].ID
	path := "/projects/" + p.Project.ID + "/endpoints/" + ep
	witness := w.project("witness").ConnectionURIs[0].URI // another compute of the cluster
	ends := []struct {
		name string
		end  func()
	}{
		{"a restart", func() { w.call("POST", path+"/restart", nil, 200, nil) }},
		{"a change of pg_settings", func() {
			w.call("PATCH", path, map[string]any{"endpoint": map[string]any{
				"settings": map[string]any{"pg_settings": map[string]string{"work_mem": "48MB"}}}}, 200, nil)
		}},
		{"a suspend on its own", func() {
			w.clock.Advance(6 * time.Minute)
			if s := w.state(p.Project.ID, ep); s != "idle" {
				t.Fatalf("6 minutes after the query the compute is %s, want idle", s)
			}
		}},
		{"the deletion", func() { w.call("DELETE", path, nil, 200, nil) }},
	}
	for _, c := range ends {
		pid := w.value(uri, "SELECT pg_backend_pid()")
		c.end()
		w.backendGone(witness, pid)
		if c.name == "the deletion" {
			break
		}
		if got := w.value(uri, "SELECT pg_backend_pid()"); got == pid {
			t.Errorf("after %s the request ran on the kept backend %s", c.name, pid)
		}
	}
}

// A new branch's copy of its parent's data does not wait for the parent's kept
// connections: they close (a database in use is copied slowly, by pg_dump).
func TestSQLOverHTTPBranchClosesTheParentsKeptConnections(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	uri := p.ConnectionURIs[0].URI
	w.sql(uri, driverHeaders, map[string]any{"query": "CREATE TABLE items AS SELECT 7 AS n"}).ok(t)
	pid := w.value(uri, "SELECT pg_backend_pid()")
	child := w.branch(p.Project.ID, p.Branch.ID)
	childURI := w.uri(p.Project.ID, child.Branch.ID, child.Endpoints[0].ID)
	if got := w.value(childURI, "SELECT n FROM items"); got != "7" {
		t.Errorf("the branch's copy has %q, want 7", got)
	}
	w.backendGone(childURI, pid)
}

// The settings a change gives the compute reach the next request (its connection
// is a new one).
func TestSQLOverHTTPSettingsChangeReachesTheNextRequest(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	uri, ep := p.ConnectionURIs[0].URI, p.Endpoints[0].ID
	w.value(uri, "SELECT 1")
	w.call("PATCH", "/projects/"+p.Project.ID+"/endpoints/"+ep, map[string]any{"endpoint": map[string]any{
		"settings": map[string]any{"pg_settings": map[string]string{"work_mem": "48MB"}}}}, 200, nil)
	if got := w.value(uri, "SHOW work_mem"); got != "48MB" {
		t.Errorf("after the change work_mem is %s, want 48MB", got)
	}
}

// A kept connection whose backend ended (terminated by someone) is not used: the
// request gets a new one.
func TestSQLOverHTTPSkipsADeadKeptConnection(t *testing.T) {
	w, p, _, conn := connectedPrimary(t)
	uri := p.ConnectionURIs[0].URI
	pid := w.value(uri, "SELECT pg_backend_pid()")
	exec(t, conn, "SELECT pg_terminate_backend($1::int)", pid)
	if got := w.value(uri, "SELECT pg_backend_pid()"); got == pid {
		t.Errorf("the request ran on the terminated backend %s", pid)
	}
}

// The pool keeps at most a few idle connections per compute, database and role:
// after many requests at once, the others close.
func TestSQLOverHTTPPoolIsBounded(t *testing.T) {
	w, p, _, conn := connectedPrimary(t)
	uri := p.ConnectionURIs[0].URI
	const requests = 9
	exec(t, conn, "SELECT pg_advisory_lock(42)") // holds every request until all have their backend
	var wg sync.WaitGroup
	for range requests {
		wg.Go(func() { w.value(uri, "SELECT pg_advisory_xact_lock_shared(42)") })
	}
	others := "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
	var n int
	waitFor(t, func() bool { return conn.QueryRow(context.Background(), others).Scan(&n) == nil && n == requests })
	exec(t, conn, "SELECT pg_advisory_unlock(42)")
	wg.Wait()
	waitFor(t, func() bool { return conn.QueryRow(context.Background(), others).Scan(&n) == nil && n == 4 })
}

// A client that goes away cancels its query: Postgres does not run it on.
func TestSQLOverHTTPClientGoneCancelsTheQuery(t *testing.T) {
	w, p, _, conn := connectedPrimary(t)
	uri := p.ConnectionURIs[0].URI
	const query = "SELECT pg_sleep(600) AS gone" // longer than waitFor waits
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+w.proxy.Addr()+"/sql", bytes.NewReader([]byte(`{"query":"`+query+`"}`)))
	req.Header.Set("Neon-Connection-String", uri)
	failed := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		failed <- err
	}()
	running := "SELECT count(*) FROM pg_stat_activity WHERE query = '" + query + "' AND state = 'active'"
	var n int
	waitFor(t, func() bool { return conn.QueryRow(context.Background(), running).Scan(&n) == nil && n == 1 })
	cancel()
	if err := <-failed; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's request ended with %v, want it cancelled", err)
	}
	waitFor(t, func() bool { return conn.QueryRow(context.Background(), running).Scan(&n) == nil && n == 0 })
	w.value(uri, "SELECT 1") // the compute answers the next request
}
