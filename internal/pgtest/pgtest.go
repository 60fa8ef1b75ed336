//go:build unix

// Package pgtest gives tests a PostgreSQL server: the one named by
// NEONFORM_TEST_POSTGRES_DSN, or else a throwaway one started from the
// PostgreSQL binaries installed on this machine, in a temporary directory,
// listening only on a Unix socket there. The state backend's tests and
// apply's share it. Only tests import it.
package pgtest

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgserver"
)

var testPostgres struct {
	once sync.Once
	dsn  string
	stop func()
	err  error
}

// Server is DSN for callers without a testing.TB (a testscript command):
// the error says how to provide a server when there is none.
func Server() (string, error) {
	if dsn := os.Getenv(DSNEnv); dsn != "" {
		return dsn, nil
	}
	testPostgres.once.Do(func() {
		testPostgres.dsn, testPostgres.stop, testPostgres.err = startThrowawayPostgres()
	})
	if testPostgres.err != nil {
		return "", fmt.Errorf("no Postgres server for the Postgres backend tests: %v\n"+
			"Provide one: %s, "+
			"or install the PostgreSQL server (Debian/Ubuntu: apt-get install -y postgresql) so that initdb and pg_ctl are under /usr/lib/postgresql/*/bin or on PATH",
			testPostgres.err, setDSN)
	}
	return testPostgres.dsn, nil
}

// Stop stops the throwaway server and the computes' cluster, if they were started.
func Stop() {
	if testPostgres.stop != nil {
		testPostgres.stop()
	}
	if computes.cluster != nil {
		computes.cluster.Stop()
	}
}

func startThrowawayPostgres() (dsn string, stop func(), err error) {
	bin, err := pgserver.FindBin()
	if err != nil {
		return "", nil, err
	}
	// A short path: the server's socket path must stay under about 100 bytes.
	dir, err := os.MkdirTemp("", "nfpg")
	if err != nil {
		return "", nil, err
	}
	srv, err := pgserver.Start(bin, dir, "fsync=off")
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop = func() {
		srv.Stop()
		os.RemoveAll(dir)
	}
	return srv.DSN("postgres"), stop, nil
}

var computes struct {
	once    sync.Once
	cluster *pgcompute.Cluster
}

// Computes returns the Postgres cluster behind the computes of the tests'
// emulators (emulator/pgcompute): one for the test binary, started on the first
// connection and stopped by Stop. Each emulator's branches have their own
// databases in it. Without PostgreSQL's server programs the test fails under CI
// (which installs them, .ci/run) and is skipped elsewhere, saying how to run it.
func Computes(t testing.TB) *pgcompute.Cluster {
	t.Helper()
	c, err := ComputesCluster()
	if err != nil {
		if ComputesRun() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return c
}

// ComputesRun reports whether the real-Postgres tests run here: PostgreSQL's
// server programs are found, or CI is set, which installs them (.ci/run), so
// that there a missing program fails the test instead of skipping it. A
// testscript script tests it as the condition [postgres].
func ComputesRun() bool {
	_, err := pgserver.FindBin()
	return err == nil || os.Getenv("CI") == "true"
}

// ComputesCluster is Computes for callers without a testing.TB (a testscript
// command): without the server's programs, an error that says how to get them.
func ComputesCluster() (*pgcompute.Cluster, error) {
	bin, err := pgserver.FindBin()
	if err != nil {
		if os.Getenv("CI") == "true" {
			return nil, fmt.Errorf("%v: CI installs PostgreSQL's server (.ci/run), so the real-Postgres tests must run", err)
		}
		return nil, fmt.Errorf("%v: install PostgreSQL's server (Debian/Ubuntu: apt-get install -y postgresql) to run the real-Postgres tests", err)
	}
	computes.once.Do(func() { computes.cluster = pgcompute.NewCluster(bin) })
	return computes.cluster, nil
}
