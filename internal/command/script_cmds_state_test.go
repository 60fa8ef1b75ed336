package command

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/internal/pgtest"
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
