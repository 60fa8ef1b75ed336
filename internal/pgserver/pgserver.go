//go:build unix

// Package pgserver starts a private PostgreSQL server from the binaries
// installed on this machine: initdb in a directory, pg_ctl start listening
// only on a Unix socket there, pg_ctl stop. The tests' throwaway server
// (internal/pgtest) and the emulator's computes (emulator/pgcompute) use it.
package pgserver

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
	"syscall"
)

// Superuser is the role initdb makes; the server trusts it on its socket,
// which only this machine's users who can enter the directory reach.
const Superuser = "neonform"

// Port is the number in the socket's name (.s.PGSQL.5432): nothing listens on TCP.
const Port = 5432

// Server is a running server.
type Server struct {
	// Dir holds the data directory, the log and the socket.
	Dir string
	// Bin is the directory of the server's programs (initdb, pg_ctl, pg_dump).
	Bin  string
	cred *syscall.Credential
}

// FindBin finds the directory of initdb and pg_ctl: the newest
// /usr/lib/postgresql/<version>/bin (Debian, Ubuntu), else PATH.
func FindBin() (string, error) {
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

// Start makes a new server in dir (empty, and short: the socket's path must
// stay under about 100 bytes) and starts it with the settings given (each
// NAME=VALUE, passed as -c). The caller stops it with Stop.
func Start(bin, dir string, settings ...string) (*Server, error) {
	cred, err := serverUser(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Bin: bin, cred: cred}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", Superuser, "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb failed: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses=''", dir)
	for _, kv := range settings {
		opts += " -c " + kv
	}
	logFile := filepath.Join(dir, "server.log")
	if out, err := s.run("pg_ctl", "-D", data, "-l", logFile, "-o", opts, "-w", "-t", "120", "start"); err != nil {
		log, _ := os.ReadFile(logFile)
		return nil, fmt.Errorf("pg_ctl start failed: %v\n%s\n%s", err, out, log)
	}
	return s, nil
}

// Stop stops the server at once (its data is thrown away with it).
func (s *Server) Stop() {
	s.run("pg_ctl", "-D", filepath.Join(s.Dir, "data"), "-m", "immediate", "-w", "stop")
}

// DSN is the key=value connection string of a database as the superuser.
func (s *Server) DSN(database string) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", s.Dir, Port, Superuser, database)
}

// Command is one of the server's programs (pg_dump, pg_restore), run as this process.
func (s *Server) Command(name string, args ...string) *exec.Cmd {
	return exec.Command(filepath.Join(s.Bin, name), args...)
}

func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := s.Command(name, args...)
	cmd.Dir = s.Dir
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
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
