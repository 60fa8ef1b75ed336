package pgcompute_test

import (
	"context"
	"crypto/tls"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func count(t testing.TB, conn *pgx.Conn) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM items").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A branch starts with its parent's data as it was when the branch was made, and
// each goes its own way after: with a session open on the parent (a dump) and
// without (a template copy).
func TestBranchesCopyTheirParentsData(t *testing.T) {
	w, p, ep, primary := connectedPrimary(t)
	exec(t, primary, "CREATE TABLE items (name text)")
	exec(t, primary, "INSERT INTO items VALUES ('a')")

	busy := w.branch(p.Project.ID, p.Branch.ID) // the primary's session is open
	exec(t, primary, "INSERT INTO items VALUES ('b')")
	primary.Close(context.Background())
	waitFor(t, func() bool { return w.emu.OpenSessions(ep) == 0 })
	quiet := w.branch(p.Project.ID, p.Branch.ID) // nobody is connected to main

	child := w.connect(w.uri(p.Project.ID, busy.Branch.ID, busy.Endpoints[0].ID))
	if n := count(t, child); n != 1 {
		t.Errorf("the branch made after one insert sees %d rows, want 1", n)
	}
	exec(t, child, "INSERT INTO items VALUES ('c'), ('d')")
	if n := count(t, child); n != 3 {
		t.Errorf("the branch sees %d rows after its own inserts, want 3", n)
	}
	later := w.connect(w.uri(p.Project.ID, quiet.Branch.ID, quiet.Endpoints[0].ID))
	if n := count(t, later); n != 2 {
		t.Errorf("the branch made after two inserts sees %d rows, want 2", n)
	}
	again := w.connect(p.ConnectionURIs[0].URI)
	if n := count(t, again); n != 2 {
		t.Errorf("main sees %d rows, want 2: the branches' writes are their own", n)
	}
}

func TestReadReplicaRefusesWrites(t *testing.T) {
	w, p, _, primary := connectedPrimary(t)
	exec(t, primary, "CREATE TABLE items (name text)")
	exec(t, primary, "INSERT INTO items VALUES ('a')")
	ro := w.endpoint(p.Project.ID, p.Branch.ID, "read_only")
	replica := w.connect(w.uri(p.Project.ID, p.Branch.ID, ro.ID))
	if n := count(t, replica); n != 1 {
		t.Errorf("the replica reads %d rows, want 1", n)
	}
	for _, sql := range []string{
		"INSERT INTO items VALUES ('x')",
		"SET default_transaction_read_only = off; INSERT INTO items VALUES ('x')",
		"SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE; DELETE FROM items",
		"CREATE TABLE other (n int)",
		"CREATE TEMP TABLE scratch (n int)",
	} {
		if _, err := replica.Exec(context.Background(), sql); err == nil {
			t.Errorf("the replica ran %q", sql)
		}
	}
	if n := count(t, primary); n != 1 {
		t.Errorf("the primary has %d rows after the replica's attempts, want 1", n)
	}
	if _, err := replica.Exec(context.Background(), "RESET ALL"); err != nil {
		t.Fatal(err)
	}
	_, err := replica.Exec(context.Background(), "INSERT INTO items VALUES ('x')")
	if err == nil || !strings.Contains(err.Error(), "read-only transaction") {
		t.Errorf("a replica's write: %v, want Postgres's read-only transaction error", err)
	}
}

func TestPgSettingsApplyToEverySession(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	ep := p.Endpoints[0].ID
	w.call("PATCH", "/projects/"+p.Project.ID+"/endpoints/"+ep, map[string]any{"endpoint": map[string]any{
		"settings": map[string]any{"pg_settings": map[string]string{"work_mem": "64MB", "statement_timeout": "7s"}}}}, 200, nil)
	conn := w.connect(p.ConnectionURIs[0].URI)
	for name, want := range map[string]string{"work_mem": "64MB", "statement_timeout": "7s"} {
		var got string
		if err := conn.QueryRow(context.Background(), "SHOW "+name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("SHOW %s = %s, want %s", name, got, want)
		}
	}
}

// A restart drops the compute's connections; a change that does not interrupt it
// (its suspend timeout) keeps them; other computes keep theirs.
func TestRestartDropsConnectionsAndOthersKeepThem(t *testing.T) {
	w, p, ep, conn := connectedPrimary(t)
	other := w.project("other")
	bystander := w.connect(other.ConnectionURIs[0].URI)

	w.call("PATCH", "/projects/"+p.Project.ID+"/endpoints/"+ep, map[string]any{"endpoint": map[string]any{"suspend_timeout_seconds": 600}}, 200, nil)
	if err := alive(conn); err != nil {
		t.Fatalf("a change of suspend timeout dropped the connection: %v", err)
	}
	w.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+ep+"/restart", nil, 200, nil)
	if err := alive(conn); err == nil {
		t.Fatal("the connection survived a restart")
	}
	if err := alive(bystander); err != nil {
		t.Fatalf("another project's connection dropped: %v", err)
	}
	if n := w.emu.OpenSessions(ep); n != 0 {
		t.Errorf("%d sessions open after the restart, want 0", n)
	}
	w.connect(p.ConnectionURIs[0].URI) // the restarted compute takes new ones
}

// A suspend drops the connections; the next connection wakes the compute (a
// start_compute operation, as the service counts a start).
func TestSuspendAndWake(t *testing.T) {
	w, p, ep, conn := connectedPrimary(t)
	w.call("POST", "/projects/"+p.Project.ID+"/endpoints/"+ep+"/suspend", nil, 200, nil)
	if err := alive(conn); err == nil {
		t.Fatal("the connection survived a suspend")
	}
	if s := w.state(p.Project.ID, ep); s != "idle" {
		t.Fatalf("after the suspend the compute is %s, want idle", s)
	}
	starts := func() int {
		var out struct {
			Operations []struct {
				Action string `json:"action"`
			} `json:"operations"`
		}
		w.call("GET", "/projects/"+p.Project.ID+"/operations", nil, 200, &out)
		n := 0
		for _, op := range out.Operations {
			if op.Action == "start_compute" {
				n++
			}
		}
		return n
	}
	before := starts()
	woken := w.connect(p.ConnectionURIs[0].URI)
	if err := alive(woken); err != nil {
		t.Fatal(err)
	}
	if s := w.state(p.Project.ID, ep); s != "active" {
		t.Errorf("after a connection the compute is %s, want active", s)
	}
	if n := starts() - before; n != 1 {
		t.Errorf("the connection made %d start_compute operations, want 1", n)
	}
}

// An open connection keeps the compute up; its suspend timeout counts from the last
// connection closed.
func TestSuspendTimeoutCountsFromTheLastConnection(t *testing.T) {
	w, p, ep, conn := connectedPrimary(t)
	w.clock.Advance(time.Hour)
	if s := w.state(p.Project.ID, ep); s != "active" {
		t.Fatalf("with a connection open for an hour the compute is %s, want active", s)
	}
	conn.Close(context.Background())
	waitFor(t, func() bool { return w.emu.OpenSessions(ep) == 0 })
	w.clock.Advance(4 * time.Minute)
	if s := w.state(p.Project.ID, ep); s != "active" {
		t.Fatalf("4 minutes after the connection closed the compute is %s, want active (timeout 5 minutes)", s)
	}
	w.clock.Advance(2 * time.Minute)
	if s := w.state(p.Project.ID, ep); s != "idle" {
		t.Fatalf("6 minutes after the connection closed the compute is %s, want idle", s)
	}
}

func TestDisabledComputeRefusesConnections(t *testing.T) {
	w, p, ep, conn := connectedPrimary(t)
	w.call("PATCH", "/projects/"+p.Project.ID+"/endpoints/"+ep, map[string]any{"endpoint": map[string]any{"disabled": true}}, 200, nil)
	if err := alive(conn); err == nil {
		t.Fatal("the connection survived disabling the compute")
	}
	_, err := pgx.Connect(context.Background(), p.ConnectionURIs[0].URI)
	if err == nil || !strings.Contains(err.Error(), "The endpoint has been disabled. Enable it using Neon API and retry.") {
		t.Fatalf("connecting to a disabled compute: %v, want the service's refusal", err)
	}
}

// The endpoint may be named in the password ("endpoint=ID;PASSWORD") by a client
// that cannot set options; a client that names none gets the service's advice; a
// wrong password is refused.
//
// Over TLS (sslmode=require), a client connected to the endpoint's host name is
// routed by the name it sends (SNI), as the service routes.
func TestRoutingForms(t *testing.T) {
	w := newWorld(t)
	p := w.project("shop")
	cfg, err := pgx.ParseConfig(p.ConnectionURIs[0].URI)
	if err != nil {
		t.Fatal(err)
	}
	ep := p.Endpoints[0].ID
	password := cfg.Password
	ctx := context.Background()

	cfg.RuntimeParams = map[string]string{}
	cfg.Password = "endpoint=" + ep + ";" + password
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("the password form: %v", err)
	}
	conn.Close(ctx)

	cfg.Password = password
	byName := cfg.Copy()
	byName.Host = ep + ".localhost"
	byName.LookupFunc = func(context.Context, string) ([]string, error) { return []string{"127.0.0.1"}, nil }
	tlsCfg, err := pgx.ParseConfig("sslmode=require host=" + byName.Host)
	if err != nil {
		t.Fatal(err)
	}
	byName.TLSConfig = tlsCfg.TLSConfig
	if byName.TLSConfig == nil || byName.TLSConfig.ServerName != byName.Host {
		t.Fatalf("pgx sends no server name: %+v", byName.TLSConfig)
	}
	conn, err = pgx.ConnectConfig(ctx, byName)
	if err != nil {
		t.Fatalf("the host name over TLS: %v", err)
	}
	if !conn.PgConn().Conn().(interface{ ConnectionState() tls.ConnectionState }).ConnectionState().HandshakeComplete {
		t.Error("the connection by host name is not over TLS")
	}
	conn.Close(ctx)

	_, err = pgx.ConnectConfig(ctx, cfg)
	if err == nil || !strings.Contains(err.Error(), "Endpoint ID is not specified") {
		t.Errorf("no endpoint: %v, want the service's advice", err)
	}
	cfg.RuntimeParams = map[string]string{"options": "endpoint=" + ep}
	cfg.Password = "wrong"
	_, err = pgx.ConnectConfig(ctx, cfg)
	var pgErr *pgconn.PgError
	if err == nil || !strings.Contains(err.Error(), "password authentication failed") {
		t.Errorf("a wrong password: %v", err)
	} else if !errors.As(err, &pgErr) || pgErr.Code != "28P01" {
		t.Errorf("a wrong password: SQLSTATE %v, want 28P01", err)
	}
}

// waitFor waits for something the proxy does on its own goroutines (a closed
// client's session ending), for at most a minute.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
	}
}

// connectedPrimary is a new project's primary, ep, with a client connected to it.
func connectedPrimary(t *testing.T) (*world, created, string, *pgx.Conn) {
	w := newWorld(t)
	p := w.project("shop")
	return w, p, p.Endpoints[0].ID, w.connect(p.ConnectionURIs[0].URI)
}
