package pgtest

import "testing"

// DSNEnv names a server the tests may use instead of a throwaway one (the
// only way on systems other than Unix).
const DSNEnv = "NEONFORM_TEST_POSTGRES_DSN"

// setDSN is how to name a server, for the error that finds none.
const setDSN = "set " + DSNEnv + "=postgres://USER:PASSWORD@HOST:PORT/DATABASE (a database where the tests may create tables and schemas)"

// DSN returns the DSN of a server the test may create tables in (Server).
// It fails the test, saying how to provide one, when there is none. On
// Unix the first call starts the throwaway server; Stop (from TestMain)
// stops it.
func DSN(t testing.TB) string {
	t.Helper()
	dsn, err := Server()
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
