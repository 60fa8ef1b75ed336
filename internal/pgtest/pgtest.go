//go:build unix

// Package pgtest gives tests a PostgreSQL server: the one named by
// NEONFORM_TEST_POSTGRES_DSN, or else a throwaway one started from the
// PostgreSQL binaries installed on this machine, in a temporary directory,
// listening only on a Unix socket there. The state backend's tests and
// apply's share it. Only tests import it.
package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// DSNEnv names a server the tests may use instead of a throwaway one.
const DSNEnv = "NEONFORM_TEST_POSTGRES_DSN"

var testPostgres struct {
	once sync.Once
	dsn  string
	stop func()
	err  error
}

// DSN returns the DSN of a server the test may create tables in. It fails
// the test, saying how to provide one, when there is none. The first call
// starts the throwaway server; Stop (from TestMain) stops it.
func DSN(t testing.TB) string {
	t.Helper()
	dsn, err := Server()
	if err != nil {
		t.Fatal(err)
	}
	return dsn
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
			"Provide one: set %s=postgres://USER:PASSWORD@HOST:PORT/DATABASE (a database where the tests may create tables and schemas), "+
			"or install the PostgreSQL server (Debian/Ubuntu: apt-get install -y postgresql) so that initdb and pg_ctl are under /usr/lib/postgresql/*/bin or on PATH",
			testPostgres.err, DSNEnv)
	}
	return testPostgres.dsn, nil
}

// Stop stops the throwaway server, if one was started.
func Stop() {
	if testPostgres.stop != nil {
		testPostgres.stop()
	}
}

func startThrowawayPostgres() (dsn string, stop func(), err error) {
	bin, err := findPostgresBin()
	if err != nil {
		return "", nil, err
	}
	// A short path: the server's socket path must stay under about 100 bytes.
	dir, err := os.MkdirTemp("", "nfpg")
	if err != nil {
		return "", nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	cred, err := serverUser(dir)
	if err != nil {
		return "", nil, err
	}
	data := filepath.Join(dir, "data")
	if out, err := runAs(cred, dir, filepath.Join(bin, "initdb"), "-D", data, "-U", "neonform", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		return "", nil, fmt.Errorf("initdb failed: %v\n%s", err, out)
	}
	logFile := filepath.Join(dir, "server.log")
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off", dir)
	if out, err := runAs(cred, dir, filepath.Join(bin, "pg_ctl"), "-D", data, "-l", logFile, "-o", opts, "-w", "-t", "120", "start"); err != nil {
		log, _ := os.ReadFile(logFile)
		return "", nil, fmt.Errorf("pg_ctl start failed: %v\n%s\n%s", err, out, log)
	}
	stop = func() {
		runAs(cred, dir, filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
		os.RemoveAll(dir)
	}
	return fmt.Sprintf("host=%s port=5432 user=neonform dbname=postgres sslmode=disable", dir), stop, nil
}

// findPostgresBin finds the directory of initdb and pg_ctl: the newest
// /usr/lib/postgresql/<version>/bin (Debian, Ubuntu), else PATH.
func findPostgresBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return pgVersion(dirs[i]) > pgVersion(dirs[j]) })
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		d := filepath.Dir(p)
		if isFile(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	return "", errors.New("initdb and pg_ctl were not found under /usr/lib/postgresql/*/bin nor on PATH")
}

func pgVersion(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// serverUser returns who runs the server: this process, or when it is root
// (initdb refuses root) the postgres user, else nobody; dir is handed to them.
func serverUser(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("running as root, and there is neither a postgres nor a nobody user to run the server as (initdb refuses root)")
}

func runAs(cred *syscall.Credential, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
}
