//go:build !unix

package state

import (
	"os"
	"testing"
)

const postgresDSNEnv = "NEONFORM_TEST_POSTGRES_DSN"

// postgresDSN: starting a throwaway server is only done on Unix; elsewhere
// the tests need a server named by NEONFORM_TEST_POSTGRES_DSN.
func postgresDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(postgresDSNEnv)
	if dsn == "" {
		t.Fatalf("no Postgres server for the Postgres backend tests: set %s=postgres://USER:PASSWORD@HOST:PORT/DATABASE (a database where the tests may create tables and schemas)", postgresDSNEnv)
	}
	return dsn
}

func stopTestPostgres() {}
