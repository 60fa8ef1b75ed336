package command

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/state"
)

// cmdPGState points the script's Postgres state at the tests' server
// (internal/pgtest):
//
//	pgstate
//
// sets NEONFORM_STATE_URL to the server's postgres:// URL and
// NEONFORM_STATE_NAME to a name no other script or run uses, so that a
// configuration with state = env("NEONFORM_STATE_URL") keeps its state there.
func cmdPGState(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: pgstate")
	}
	dsn, err := pgtest.Server()
	ts.Check(err)
	ts.Setenv("NEONFORM_STATE_URL", postgresURL(dsn))
	// A name of this run too: a server named by NEONFORM_TEST_POSTGRES_DSN
	// keeps the states of earlier runs.
	ts.Setenv("NEONFORM_STATE_NAME", fmt.Sprintf("script/%s/%x", filepath.Base(ts.Getenv("WORK")), rand.Uint64()))
}

// postgresURL writes a key=value connection string as the postgres:// URL
// the state setting takes (a URL is returned as it is).
func postgresURL(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return dsn
	}
	q := url.Values{}
	db := ""
	for _, kv := range strings.Fields(dsn) {
		k, v, _ := strings.Cut(kv, "=")
		if k == "dbname" {
			db = v
			continue
		}
		q.Set(k, v)
	}
	return (&url.URL{Scheme: "postgres", Path: "/" + db, RawQuery: q.Encode()}).String()
}

// cmdPGHoldProjects takes the locks of projects of the script's Postgres
// state (pgstate), as a run of user "ci" doing "apply" would, and holds them
// until the script ends (or force-unlock ends them):
//
//	pgholdprojects PROJECT_ID...
//
// sets LOCK_ID to the lock's ID.
func cmdPGHoldProjects(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: pgholdprojects PROJECT_ID...")
	}
	ctx := context.Background()
	pg, err := state.NewPostgres(ctx, ts.Getenv("NEONFORM_STATE_URL"), ts.Getenv("NEONFORM_STATE_NAME"))
	ts.Check(err)
	ts.Defer(func() { pg.Close(ctx) })
	unlock, err := pg.LockProjects(state.WithOperation(ctx, "apply"), "ci", args)
	ts.Check(err)
	ts.Defer(func() { unlock() })
	// The lock's ID, as another run is told it.
	_, err = pg.LockProjects(ctx, "probe", args[:1])
	var held *state.LockedError
	if !errors.As(err, &held) {
		ts.Fatalf("the projects' lock is not seen held: %v", err)
	}
	ts.Setenv("LOCK_ID", held.Info.ID)
}
