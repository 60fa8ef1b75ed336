//go:build !unix

package pgtest

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/neonform/neonform/emulator/pgcompute"
)

// Server is DSN for callers without a testing.TB (a testscript command):
// starting a throwaway server is only done on Unix; elsewhere the tests
// need a server named by NEONFORM_TEST_POSTGRES_DSN.
func Server() (string, error) {
	dsn := os.Getenv(DSNEnv)
	if dsn == "" {
		return "", fmt.Errorf("no Postgres server for the Postgres backend tests: %s", setDSN)
	}
	return dsn, nil
}

// Stop does nothing: no server was started.
func Stop() {}

// Computes: the computes' cluster runs only on Unix; elsewhere the test fails
// under CI and is skipped otherwise.
func Computes(t testing.TB) *pgcompute.Cluster {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal("the real-Postgres tests run only on Unix")
	}
	t.Skip("the real-Postgres tests run only on Unix")
	return nil
}

// ComputesRun: under CI the real-Postgres tests run (and fail) everywhere.
func ComputesRun() bool { return os.Getenv("CI") == "true" }

// ComputesCluster: the computes' cluster runs only on Unix.
func ComputesCluster() (*pgcompute.Cluster, error) {
	return nil, errors.New("the real-Postgres tests run only on Unix")
}
