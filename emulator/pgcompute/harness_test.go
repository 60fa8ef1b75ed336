package pgcompute_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgserver"
	"github.com/neonform/neonform/internal/pgtest"
)

// world is an emulator backed by real Postgres, served over loopback.
type world struct {
	t     testing.TB
	emu   *emulator.Emulator
	proxy *pgcompute.Proxy
	api   string
	clock *emulator.FakeClock
	close func()
	// closeHTTP stops serving the API.
	closeHTTP func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldOn(t, pgtest.Computes(t))
}

// newPrivateWorld is a world with a cluster of its own, not yet started, which
// close stops.
func newPrivateWorld(t testing.TB) *world {
	t.Helper()
	pgtest.Computes(t) // skips or fails without the server's programs
	bin, err := pgserver.FindBin()
	if err != nil {
		t.Fatal(err)
	}
	c := pgcompute.NewCluster(bin)
	w := newWorldOn(t, c)
	w.close = func() {
		w.proxy.Close()
		c.Stop()
	}
	t.Cleanup(c.Stop)
	return w
}

func newWorldOn(t testing.TB, c *pgcompute.Cluster) *world {
	t.Helper()
	proxy, err := pgcompute.Listen("127.0.0.1:0", c)
	if err != nil {
		t.Fatal(err)
	}
	clock := emulator.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	emu, err := emulator.New(emulator.Options{APIKey: "napi_test", RatePerMinute: -1, Clock: clock, Postgres: proxy})
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve(emu)
	return serveWorld(t, emu, proxy, clock)
}

// serveWorld serves emu's API over loopback until the test ends (or closeHTTP).
func serveWorld(t testing.TB, emu *emulator.Emulator, proxy *pgcompute.Proxy, clock *emulator.FakeClock) *world {
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(func() {
		srv.Close()
		proxy.Close()
	})
	return &world{t: t, emu: emu, proxy: proxy, api: srv.URL + "/api/v2", clock: clock, closeHTTP: srv.Close}
}

// call sends an API request and decodes the answer into out; it fails the test on a
// status other than want.
func (w *world) call(method, path string, body any, want int, out any) {
	w.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.api+path, r)
	req.Header.Set("Authorization", "Bearer napi_test")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		w.t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, raw, want)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			w.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

type endpointJSON struct {
	ID           string `json:"id"`
	BranchID     string `json:"branch_id"`
	CurrentState string `json:"current_state"`
}

type created struct {
	Project struct {
		ID string `json:"id"`
	} `json:"project"`
	Branch struct {
		ID string `json:"id"`
	} `json:"branch"`
	Endpoints      []endpointJSON `json:"endpoints"`
	ConnectionURIs []struct {
		URI string `json:"connection_uri"`
	} `json:"connection_uris"`
}

// project creates a project; its answer carries the primary's connection URI.
func (w *world) project(name string) created {
	var out created
	w.call("POST", "/projects", map[string]any{"project": map[string]any{"name": name}}, 201, &out)
	if len(out.ConnectionURIs) != 1 {
		w.t.Fatalf("project %s: %d connection URIs, want 1", name, len(out.ConnectionURIs))
	}
	return out
}

// branch creates a child of parent with a read_write compute.
func (w *world) branch(projectID, parentID string) created {
	var out created
	w.call("POST", "/projects/"+projectID+"/branches", map[string]any{
		"branch":    map[string]any{"parent_id": parentID},
		"endpoints": []any{map[string]any{"type": "read_write"}}}, 201, &out)
	return out
}

// endpoint creates a compute on a branch.
func (w *world) endpoint(projectID, branchID, typ string) endpointJSON {
	var out struct {
		Endpoint endpointJSON `json:"endpoint"`
	}
	w.call("POST", "/projects/"+projectID+"/endpoints", map[string]any{"endpoint": map[string]any{"branch_id": branchID, "type": typ}}, 201, &out)
	return out.Endpoint
}

// uri is the connection URI of the branch's database through an endpoint.
func (w *world) uri(projectID, branchID, endpointID string) string {
	var out struct {
		URI string `json:"uri"`
	}
	q := url.Values{"branch_id": {branchID}, "endpoint_id": {endpointID}, "database_name": {"neondb"}, "role_name": {"neondb_owner"}}
	w.call("GET", "/projects/"+projectID+"/connection_uri?"+q.Encode(), nil, 200, &out)
	return out.URI
}

func (w *world) state(projectID, endpointID string) string {
	var out struct {
		Endpoint endpointJSON `json:"endpoint"`
	}
	w.call("GET", "/projects/"+projectID+"/endpoints/"+endpointID, nil, 200, &out)
	return out.Endpoint.CurrentState
}

func (w *world) connect(uri string) *pgx.Conn {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, uri)
	if err != nil {
		w.t.Fatalf("connect %s: %v", uri, err)
	}
	w.t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// alive runs a query on conn: nil while the connection holds.
func alive(conn *pgx.Conn) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var n int
	return conn.QueryRow(ctx, "SELECT 1").Scan(&n)
}

func exec(t testing.TB, conn *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// endpointOf is the endpoint a connection URI names.
func (w *world) endpointOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		w.t.Fatal(err)
	}
	return strings.TrimPrefix(u.Query().Get("options"), "endpoint=")
}
