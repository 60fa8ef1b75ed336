package pgcompute_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sqlAnswer is an answer of SQL over HTTP, decoded.
type sqlAnswer struct {
	status int
	body   map[string]any
	header http.Header
}

// driverHeaders are the headers the service's serverless driver sends with every
// query (neon() of @neondatabase/serverless 1.0).
var driverHeaders = map[string]string{"Neon-Raw-Text-Output": "true", "Neon-Array-Mode": "true"}

// sql posts a body to the proxy's /sql with the connection string uri.
func (w *world) sql(uri string, headers map[string]string, body any) sqlAnswer {
	w.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", "http://"+w.proxy.Addr()+"/sql", bytes.NewReader(b))
	req.Header.Set("Neon-Connection-String", uri)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := sqlAnswer{status: resp.StatusCode, header: resp.Header}
	if err := json.Unmarshal(raw, &a.body); err != nil {
		w.t.Fatalf("the answer is not a JSON object: %v: %s", err, raw)
	}
	return a
}

// ok checks a 200 and returns the body as JSON text again, for comparing parts.
func (a sqlAnswer) ok(t testing.TB) map[string]any {
	t.Helper()
	if a.status != 200 {
		t.Fatalf("status %d: %v", a.status, a.body)
	}
	return a.body
}

// The driver's request (raw text, rows as lists) answers rows, fields, command and
// rowCount in the service's shape, its parameters bound as text; the same port
// still serves Postgres clients.
func TestSQLOverHTTPAsTheDriverAsks(t *testing.T) {
	w, p, _, conn := connectedPrimary(t)
	uri := p.ConnectionURIs[0].URI
	w.sql(uri, driverHeaders, map[string]any{"query": "CREATE TABLE items (id int, name text, tags text[], doc jsonb)", "params": []any{}}).ok(t)
	ins := w.sql(uri, driverHeaders, map[string]any{"query": "INSERT INTO items VALUES ($1, $2, $3, $4), (2, NULL, '{}', 'null')",
		"params": []any{1, `a "b" \c`, []any{"x y", nil, `q"`}, map[string]any{"k": []any{1, true}}}}).ok(t)
	if ins["command"] != "INSERT" || ins["rowCount"] != 2.0 {
		t.Errorf("INSERT answered command %v, rowCount %v; want INSERT, 2", ins["command"], ins["rowCount"])
	}
	got := w.sql(uri, driverHeaders, map[string]any{"query": "SELECT id, name, tags, doc FROM items WHERE id >= $1 ORDER BY id", "params": []any{"1"}}).ok(t)
	want := map[string]any{
		"command": "SELECT", "rowCount": 2.0, "rowAsArray": true,
		"rows": []any{
			[]any{"1", `a "b" \c`, `{"x y",NULL,"q\""}`, `{"k": [1, true]}`},
			[]any{"2", nil, "{}", "null"},
		},
	}
	fields := got["fields"].([]any)
	delete(got, "fields")
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("SELECT answered (-want +got):\n%s", d)
	}
	var names []string
	for _, f := range fields {
		f := f.(map[string]any)
		names = append(names, f["name"].(string))
		if f["tableID"].(float64) == 0 || f["format"] != "text" {
			t.Errorf("field %v lacks its table or format", f)
		}
	}
	if strings.Join(names, ",") != "id,name,tags,doc" || fields[0].(map[string]any)["dataTypeID"] != 23.0 {
		t.Errorf("fields %v, want id (int4, 23), name, tags, doc", fields)
	}
	if n := count(t, conn); n != 2 {
		t.Errorf("a Postgres client on the same port sees %d rows, want 2", n)
	}
}

// Without the driver's headers, rows are objects and values JSON types: numbers
// that JSON keeps exact, booleans, json, and arrays as lists.
func TestSQLOverHTTPTypedRows(t *testing.T) {
	w := newWorld(t)
	uri := w.project("shop").ConnectionURIs[0].URI
	got := w.sql(uri, nil, map[string]any{"query": `SELECT 7::int4 AS i, 9007199254740993::int8 AS big, 1.5::float8 AS f,
		'NaN'::float8 AS nan, true AS b, '{"a": [1]}'::jsonb AS j, ARRAY[[1,2],[3,NULL]] AS m, ARRAY['a,b', 'c"'] AS t, NULL::text AS n`}).ok(t)
	want := []any{map[string]any{"i": 7.0, "big": "9007199254740993", "f": 1.5, "nan": "NaN", "b": true,
		"j": map[string]any{"a": []any{1.0}}, "m": []any{[]any{1.0, 2.0}, []any{3.0, nil}}, "t": []any{"a,b", `c"`}, "n": nil}}
	if d := cmp.Diff(want, got["rows"]); d != "" {
		t.Errorf("typed rows (-want +got):\n%s", d)
	}
	if got["rowAsArray"] != false {
		t.Errorf("rowAsArray %v, want false", got["rowAsArray"])
	}
}

// A batch is one transaction: its results in order; one failing query rolls the
// others back. The modes of the batch's transaction come back as headers.
func TestSQLOverHTTPBatchIsATransaction(t *testing.T) {
	w, p, _, conn := connectedPrimary(t)
	uri := p.ConnectionURIs[0].URI
	exec(t, conn, "CREATE TABLE items (name text)")
	a := w.sql(uri, map[string]string{"Neon-Batch-Isolation-Level": "Serializable"}, map[string]any{"queries": []any{
		map[string]any{"query": "INSERT INTO items VALUES ($1)", "params": []any{"a"}},
		map[string]any{"query": "SELECT name, current_setting('transaction_isolation') AS iso FROM items", "arrayMode": true},
	}})
	body := a.ok(t)
	results := body["results"].([]any)
	if len(results) != 2 || results[0].(map[string]any)["command"] != "INSERT" {
		t.Fatalf("results %v, want an INSERT and a SELECT", results)
	}
	if d := cmp.Diff([]any{[]any{"a", "serializable"}}, results[1].(map[string]any)["rows"]); d != "" {
		t.Errorf("the batch's SELECT (-want +got):\n%s", d)
	}
	if a.header.Get("Neon-Batch-Isolation-Level") != "Serializable" {
		t.Errorf("the answer's isolation header is %q, want Serializable", a.header.Get("Neon-Batch-Isolation-Level"))
	}
	failed := w.sql(uri, nil, map[string]any{"queries": []any{
		map[string]any{"query": "INSERT INTO items VALUES ('b')"},
		map[string]any{"query": "SELECT 1/0"},
	}})
	if failed.status != 400 || failed.body["code"] != "22012" {
		t.Errorf("a failing batch: %d %v, want 400 with code 22012", failed.status, failed.body)
	}
	if n := count(t, conn); n != 1 {
		t.Errorf("after the failed batch the table has %d rows, want 1: its insert should be rolled back", n)
	}
	readOnly := w.sql(uri, map[string]string{"Neon-Batch-Read-Only": "true"}, map[string]any{"queries": []any{
		map[string]any{"query": "INSERT INTO items VALUES ('c')"},
	}})
	if readOnly.status != 400 || readOnly.body["code"] != "25006" {
		t.Errorf("a write in a read-only batch: %d %v, want 400 with 25006", readOnly.status, readOnly.body)
	}
}

// Errors carry Postgres's fields, with 400, as the driver reads them; the compute's
// rules hold as for a Postgres client: a wrong password, no endpoint, a replica's
// write and a disabled compute are refused.
func TestSQLOverHTTPRefusals(t *testing.T) {
	w, p, ep, _ := connectedPrimary(t)
	uri := p.ConnectionURIs[0].URI
	syntax := w.sql(uri, driverHeaders, map[string]any{"query": "SELEC 1"})
	if syntax.status != 400 || syntax.body["code"] != "42601" || syntax.body["position"] != "1" || syntax.body["severity"] != "ERROR" {
		t.Errorf("a syntax error: %d %v, want 400, 42601 at position 1", syntax.status, syntax.body)
	}
	u, _ := url.Parse(uri)
	u.User = url.UserPassword(u.User.Username(), "wrong")
	if a := w.sql(u.String(), nil, map[string]any{"query": "SELECT 1"}); a.status != 400 || a.body["code"] != "28P01" {
		t.Errorf("a wrong password: %d %v, want 400 with 28P01", a.status, a.body)
	}
	q := u.Query()
	q.Del("options")
	u.RawQuery = q.Encode()
	if a := w.sql(u.String(), nil, map[string]any{"query": "SELECT 1"}); a.status != 400 || !strings.Contains(a.body["message"].(string), "Endpoint ID is not specified") {
		t.Errorf("no endpoint: %d %v, want the service's advice", a.status, a.body)
	}
	if a := w.sql(uri, nil, map[string]any{"params": []any{}}); a.status != 400 {
		t.Errorf("a body without a query: %d %v, want 400", a.status, a.body)
	}

	ro := w.endpoint(p.Project.ID, p.Branch.ID, "read_only")
	replica := w.uri(p.Project.ID, p.Branch.ID, ro.ID)
	if a := w.sql(replica, nil, map[string]any{"query": "CREATE TABLE t (n int)"}); a.status != 400 || a.body["code"] != "25006" {
		t.Errorf("a replica's write: %d %v, want 400 with 25006 (read-only transaction)", a.status, a.body)
	}
	if a := w.sql(replica, nil, map[string]any{"query": "SELECT 1 AS one"}); a.status != 200 {
		t.Errorf("a replica's read: %d %v", a.status, a.body)
	}

	w.call("PATCH", "/projects/"+p.Project.ID+"/endpoints/"+ep, map[string]any{"endpoint": map[string]any{"disabled": true}}, 200, nil)
	if a := w.sql(uri, nil, map[string]any{"query": "SELECT 1"}); a.status != 400 || !strings.Contains(a.body["message"].(string), "The endpoint has been disabled") {
		t.Errorf("a disabled compute: %d %v, want the service's refusal", a.status, a.body)
	}
}

// A request wakes an idle compute, as a connection does, and its session closes with
// the answer: the suspend timeout counts from then.
func TestSQLOverHTTPWakesAnIdleCompute(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	ep := p.Endpoints[0].ID
	w.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+ep+"/suspend", nil, 200, nil)
	if s := w.state(p.Project.ID, ep); s != "idle" {
		t.Fatalf("after the suspend the compute is %s, want idle", s)
	}
	w.sql(p.ConnectionURIs[0].URI, driverHeaders, map[string]any{"query": "SELECT 1"}).ok(t)
	if s := w.state(p.Project.ID, ep); s != "active" {
		t.Errorf("after a query over HTTP the compute is %s, want active", s)
	}
	waitFor(t, func() bool { return w.emu.OpenSessions(ep) == 0 })
	w.clock.Advance(6 * time.Minute)
	if s := w.state(p.Project.ID, ep); s != "idle" {
		t.Errorf("6 minutes after the query the compute is %s, want idle (timeout 5 minutes)", s)
	}
}

// A restart fails the query in flight, with Postgres's code for a terminated
// connection; the restarted compute answers the next one.
func TestSQLOverHTTPRestartFailsTheQueryInFlight(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	ep := p.Endpoints[0].ID
	uri := p.ConnectionURIs[0].URI
	answer := make(chan sqlAnswer, 1)
	go func() { answer <- w.sql(uri, driverHeaders, map[string]any{"query": "SELECT pg_sleep(600)"}) }()
	watch := w.connect(uri)
	waitFor(t, func() bool { // the query runs
		var n int
		err := watch.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)' AND state = 'active'").Scan(&n)
		return err == nil && n == 1
	})
	w.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+ep+"/restart", nil, 200, nil)
	a := <-answer
	if a.status != 400 || a.body["code"] != "57P01" || !strings.Contains(a.body["message"].(string), "restarted") {
		t.Errorf("the query in flight during a restart: %d %v, want 400 with 57P01", a.status, a.body)
	}
	w.sql(uri, driverHeaders, map[string]any{"query": "SELECT 1"}).ok(t)
}

// The endpoint is found as for a Postgres client: by the host's first label
// (ep-....localhost) and by the password form too. Other paths and methods are
// refused.
func TestSQLOverHTTPRoutingAndPaths(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	u, _ := url.Parse(p.ConnectionURIs[0].URI)
	password, _ := u.User.Password()
	u.RawQuery = ""
	byHost := *u
	byHost.Host = p.Endpoints[0].ID + ".localhost:5455"
	byPassword := *u
	byPassword.User = url.UserPassword(u.User.Username(), "endpoint="+p.Endpoints[0].ID+";"+password)
	for _, uri := range []string{byHost.String(), byPassword.String()} {
		got := w.sql(uri, driverHeaders, map[string]any{"query": "SELECT current_user"}).ok(t)
		if d := cmp.Diff([]any{[]any{"neondb_owner"}}, got["rows"]); d != "" {
			t.Errorf("%s: (-want +got):\n%s", uri, d)
		}
	}
	for _, c := range []struct {
		method, path string
		want         int
	}{{"POST", "/sql/x", 404}, {"GET", "/sql", 405}} {
		req, _ := http.NewRequest(c.method, "http://"+w.proxy.Addr()+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.want)
		}
	}
}
