//go:build !unix

package pgserver

import (
	"errors"
	"os/exec"
)

// Superuser is the role initdb makes.
const Superuser = "neonform"

// Port is the number in the socket's name.
const Port = 5432

// Server is a running server; there is none off Unix.
type Server struct{ Dir, Bin string }

// FindBin: servers are started only on Unix.
func FindBin() (string, error) {
	return "", errors.New("starting a PostgreSQL server is supported only on Unix")
}

// Start is not supported off Unix.
func Start(bin, dir string, settings ...string) (*Server, error) {
	return nil, errors.New("not on Unix")
}

// Stop does nothing.
func (s *Server) Stop() {}

// DSN is empty: there is no server.
func (s *Server) DSN(database string) string { return "" }

// Command is not supported off Unix.
func (s *Server) Command(name string, args ...string) *exec.Cmd { return exec.Command(name, args...) }
