package command

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/internal/pgtest"
)

// neonform emulator -postgres: the connection URI of a new project opens its
// primary's database, with pg_settings in force; Ctrl-C closes the connections.
func TestEmulatorCommandWithPostgres(t *testing.T) {
	p, uri := startPostgresEmulatorWithShop(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, uri)
	failOn(t, err)
	var workMem string
	failOn(t, conn.QueryRow(ctx, "SHOW work_mem").Scan(&workMem))
	if workMem != "48MB" {
		t.Errorf("SHOW work_mem = %s, want the project's default pg_settings, 48MB", workMem)
	}
	p.stop(t)
	if err := conn.Ping(ctx); err == nil {
		t.Error("a connection outlived the emulator")
	}
	conn.Close(context.Background())
}

// neonform emulator -postgres -data FILE: what a client wrote is there again after
// the emulator stops and starts over the same FILE (kept in FILE's .postgres
// directory beside it), through the connection URI the restarted emulator gives.
func TestEmulatorCommandWithPostgresKeepsDataAcrossRestarts(t *testing.T) {
	pgtest.Computes(t) // fails under CI without PostgreSQL's server programs, skips elsewhere
	data := filepath.Join(t.TempDir(), "world.json")
	args := []string{"-addr", "127.0.0.1:0", "-data", data, "-postgres", "-postgres-addr", "127.0.0.1:0", "-op-delay", "0s", "-api-key", "napi_dev", "-quiet"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	p := startEmulatorCommand(t, args...)
	status, body := httpCall(t, "POST", p.base+"/projects", "napi_dev", `{"project":{"name":"shop"}}`)
	if status != 201 {
		t.Fatalf("create project: %d %s", status, body)
	}
	var created struct {
		Project        struct{ ID string }
		ConnectionURIs []struct {
			URI string `json:"connection_uri"`
		} `json:"connection_uris"`
	}
	failOn(t, json.Unmarshal([]byte(body), &created))
	conn, err := pgx.Connect(ctx, created.ConnectionURIs[0].URI)
	failOn(t, err)
	_, err = conn.Exec(ctx, "CREATE TABLE items (name text); INSERT INTO items VALUES ('kept')")
	failOn(t, err)
	p.stop(t)
	conn.Close(context.Background())

	p = startEmulatorCommand(t, args...)
	status, body = httpCall(t, "GET", p.base+"/projects/"+created.Project.ID+"/connection_uri?database_name=neondb&role_name=neondb_owner", "napi_dev", "")
	if status != 200 {
		t.Fatalf("connection_uri: %d %s", status, body)
	}
	var uri struct{ URI string }
	failOn(t, json.Unmarshal([]byte(body), &uri))
	conn, err = pgx.Connect(ctx, uri.URI)
	failOn(t, err)
	defer conn.Close(context.Background())
	var name string
	if err := conn.QueryRow(ctx, "SELECT name FROM items").Scan(&name); err != nil || name != "kept" {
		t.Errorf("after the restart: %q, %v; want the row written before it", name, err)
	}
	p.stop(t)
}

// startPostgresEmulatorWithShop starts neonform emulator -postgres (on free
// ports, operations at once, key napi_dev) and creates project shop, whose
// computes have work_mem 48MB; uri is its primary's connection URI, which
// goes through the emulator's proxy.
func startPostgresEmulatorWithShop(t *testing.T) (p *emulatorProcess, uri string) {
	t.Helper()
	pgtest.Computes(t) // fails under CI without PostgreSQL's server programs, skips elsewhere
	p = startEmulatorCommand(t, "-addr", "127.0.0.1:0", "-postgres", "-postgres-addr", "127.0.0.1:0", "-op-delay", "0s", "-api-key", "napi_dev", "-quiet")
	status, body := httpCall(t, "POST", p.base+"/projects", "napi_dev",
		`{"project":{"name":"shop","default_endpoint_settings":{"pg_settings":{"work_mem":"48MB"}}}}`)
	if status != 201 {
		t.Fatalf("create project: %d %s", status, body)
	}
	var created struct {
		ConnectionURIs []struct {
			URI string `json:"connection_uri"`
		} `json:"connection_uris"`
	}
	failOn(t, json.Unmarshal([]byte(body), &created))
	if len(created.ConnectionURIs) != 1 || !strings.Contains(created.ConnectionURIs[0].URI, "options=endpoint%3Dep-") {
		t.Fatalf("connection URIs %+v, want one through the proxy", created.ConnectionURIs)
	}
	return p, created.ConnectionURIs[0].URI
}
