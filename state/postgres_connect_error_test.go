package state

import (
	"context"
	"net"
	"strings"
	"testing"
)

// An unreachable server is one sentence that names the state, the address
// once, what failed and what to check: not the driver's three layers.
func TestPostgresUnreachableSaysWhatToCheck(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err = NewPostgres(context.Background(), "postgres://neon:hunter2-secret@"+addr+"/shop?sslmode=disable&connect_timeout=5", "x")
	if err == nil {
		t.Fatal("NewPostgres to a closed port succeeded")
	}
	msg := err.Error()
	for _, want := range []string{"cannot reach postgres state \"x\"", "on " + addr, "nothing listens there", "Is the Postgres server running"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
	if strings.Count(msg, addr) != 1 || strings.Contains(msg, "hunter2") || strings.Contains(msg, "dial error") {
		t.Errorf("error repeats the address, shows the password or the driver's layers: %s", msg)
	}
}

func TestPostgresMissingDatabaseSaysHowToCreateIt(t *testing.T) {
	dsn := setDSNParam(postgresDSN(t), "dbname", "no_such_db_"+newUUID()[:8])
	_, err := NewPostgres(context.Background(), dsn, "x")
	if err == nil {
		t.Fatal("NewPostgres to a missing database succeeded")
	}
	if msg := err.Error(); !strings.Contains(msg, "does not exist. Create it (createdb no_such_db_") {
		t.Errorf("error does not say how to create the database: %s", msg)
	}
}
