package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/pgtest"
)

// Without PostgreSQL's server programs the sandbox's computes are records, as
// before: no backing, and its line says so and how to change it.
func TestSandboxWithoutPostgresSaysHowToGetIt(t *testing.T) {
	pg := sandboxPostgresWith(".neonform/sandbox.json", "", errors.New("initdb and pg_ctl were not found"))
	if pg.backing != nil {
		t.Error("the computes are backed without the server's programs")
	}
	var line bytes.Buffer
	views.WriteSandboxPostgres(&line, pg.say)
	for _, want := range []string{"records only", "initdb and pg_ctl were not found", "apt-get install postgresql"} {
		if !strings.Contains(line.String(), want) {
			t.Errorf("line %q does not say %q", line.String(), want)
		}
	}
}

// The embedded sandbox with PostgreSQL's server programs: its first line says
// its computes are real Postgres while neonform emulator -postgres -data serves
// its world; served so, the URI of output -json -connection-uris connects, and
// what is written there is still there after the emulator stops, in a branch the
// one-shot sandbox makes afterwards as well as in its parent.
func TestSandboxComputesAreRealPostgresWhenServed(t *testing.T) {
	pgtest.Computes(t) // fails under CI without PostgreSQL's server programs, skips elsewhere
	dir := t.TempDir()
	main := `
  branch "main" {
    compute "primary" {
      type = "read_write"
    }
  }`
	dev := `
  branch "dev" {
    compute "app" {
      type = "read_write"
    }
  }`
	config := func(branches string) {
		hcl := "neonform {\n  api_url = \"embedded\"\n}\nproject \"shop\" {\n  id = \"quiet-meadow-52817364\"" + branches + "\n}\n"
		failOn(t, os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o600))
	}
	config(main)
	_, stderr := runNeonformOK(t, nil, "apply", "-auto-approve", dir)
	if first, _, _ := strings.Cut(stderr, "\n"); !strings.HasPrefix(first, "Sandbox: the computes are real Postgres while neonform emulator -postgres -data ") {
		t.Fatalf("first line %q does not say the computes are real Postgres, and how", first)
	}

	data := filepath.Join(dir, ".neonform", "sandbox.json")
	serve := []string{"-addr", "127.0.0.1:0", "-data", data, "-postgres", "-postgres-addr", "127.0.0.1:0", "-op-delay", "0s", "-api-key", sandboxKey, "-quiet"}
	p := startEmulatorCommand(t, serve...)
	conn := connectOutput(t, p, dir, "shop.main.primary")
	_, err := conn.Exec(context.Background(), "CREATE TABLE items (name text); INSERT INTO items VALUES ('kept')")
	failOn(t, err)
	p.stop(t)

	config(main + dev)
	runNeonformOK(t, nil, "apply", "-auto-approve", dir) // the one-shot sandbox makes dev from main

	p = startEmulatorCommand(t, serve...)
	for _, addr := range []string{"shop.main.primary", "shop.dev.app"} {
		var name string
		err := connectOutput(t, p, dir, addr).QueryRow(context.Background(), "SELECT name FROM items").Scan(&name)
		if err != nil || name != "kept" {
			t.Errorf("%s after the emulator's restart: %q, %v; want the row written before", addr, name, err)
		}
	}
	p.stop(t)
}

// runNeonformOK runs neonform with env added, failing the test if it fails.
func runNeonformOK(t *testing.T, env []string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command("neonform", args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("neonform %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// connectOutput connects to the compute at addr, through the emulator p, with the URI neonform output
// -json -connection-uris gives and the password of its role from the API, as
// psql with PGPASSWORD does.
func connectOutput(t *testing.T, p *emulatorProcess, dir, addr string) *pgx.Conn {
	t.Helper()
	out, _ := runNeonformOK(t, []string{"NEON_API_URL=" + p.base, "NEON_API_KEY=" + sandboxKey}, "output", "-json", "-connection-uris", dir)
	var entries map[string]outputEntry
	failOn(t, json.Unmarshal([]byte(out), &entries))
	e := entries[addr]
	cfg, err := pgx.ParseConfig(e.ConnectionURI)
	failOn(t, err)
	status, body := httpCall(t, "GET", p.base+"/projects/"+e.ProjectID+"/branches/"+e.BranchID+"/roles/"+cfg.User+"/reveal_password", sandboxKey, "")
	if status != 200 {
		t.Fatalf("reveal_password: %d %s", status, body)
	}
	var pw struct{ Password string }
	failOn(t, json.Unmarshal([]byte(body), &pw))
	cfg.Password = pw.Password
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connecting to %s with %s: %v", addr, e.ConnectionURI, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
