package pgschema_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/internal/pgschema"
	"github.com/neonform/neonform/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// TestEnsureCreatesOnceWhenFirstRunsRace: runs that find no tables at the
// same moment all succeed (without the lock, CREATE TABLE IF NOT EXISTS
// fails in one of them), and once the tables exist create is not run at
// all.
func TestEnsureCreatesOnceWhenFirstRunsRace(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	table := fmt.Sprintf("pgschema_test_%d", time.Now().UnixNano())
	create := []string{
		`CREATE TABLE IF NOT EXISTS ` + table + ` (id int)`,
		`CREATE INDEX IF NOT EXISTS ` + table + `_id ON ` + table + ` (id)`,
	}
	const exists = `SELECT to_regclass($1) IS NOT NULL`
	conns := make([]*pgx.Conn, 8)
	for i := range conns {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		conns[i] = c
	}
	t.Cleanup(func() { _, _ = conns[0].Exec(context.Background(), `DROP TABLE IF EXISTS `+table) })
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Go(func() { errs[i] = pgschema.Ensure(ctx, c, "pgschema test "+table, create, exists, table) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	// The tables exist: a create that would fail is not run.
	if err := pgschema.Ensure(ctx, conns[0], "pgschema test "+table, []string{`SELECT 1/0`}, exists, table); err != nil {
		t.Errorf("create ran although the tables exist: %v", err)
	}
	// They do not: it runs, and its error is the answer.
	if err := pgschema.Ensure(ctx, conns[0], "pgschema test "+table, []string{`SELECT 1/0`}, exists, table+"_none"); err == nil {
		t.Errorf("create did not run although nothing exists")
	}
}
