//go:build !unix

package pgtest

import (
	"os"
	"testing"
)

// DSNEnv names the server the tests use.
const DSNEnv = "NEONFORM_TEST_POSTGRES_DSN"

// DSN: starting a throwaway server is only done on Unix; elsewhere the
// tests need a server named by NEONFORM_TEST_POSTGRES_DSN.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(DSNEnv)
	if dsn == "" {
		t.Fatalf("no Postgres server for the Postgres backend tests: set %s=postgres://USER:PASSWORD@HOST:PORT/DATABASE (a database where the tests may create tables and schemas)", DSNEnv)
	}
	return dsn
}

// Stop does nothing: no server was started.
func Stop() {}
