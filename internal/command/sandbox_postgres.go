package command

import (
	"fmt"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgserver"
	"github.com/neonform/neonform/internal/shellquote"
)

// sandboxPostgres is the real Postgres behind the embedded sandbox's computes
// (docs/emulator.md, The embedded sandbox). The sandbox lives for one command,
// too short for anyone to connect, so it serves no connection itself: its
// computes' data is kept beside its world file (pgcompute.KeepDir), their
// connection URIs name the proxy of neonform emulator -postgres at its default
// address, and that emulator, run over the same world file, serves them for as
// long as it runs. In the sandbox itself a new branch gets a copy of its
// parent's kept data. Without PostgreSQL's server programs the computes are
// records, as before, and line says so and how to change it.
type sandboxPostgres struct {
	backing emulator.Postgres // nil: records only
	line    string            // what the sandbox says about its computes, once
}

// newSandboxPostgres is the sandbox's Postgres for its world file, with the
// server's programs found on this machine.
func newSandboxPostgres(dataFile string) sandboxPostgres {
	bin, err := pgserver.FindBin()
	return sandboxPostgresWith(dataFile, bin, err)
}

// sandboxPostgresWith is newSandboxPostgres with the programs' directory bin,
// or findErr when they were not found.
func sandboxPostgresWith(dataFile, bin string, findErr error) sandboxPostgres {
	if findErr != nil {
		return sandboxPostgres{line: fmt.Sprintf("Sandbox: the computes are records only, and their connection URIs open nothing: %v; install PostgreSQL's server (Debian, Ubuntu: apt-get install postgresql) to have real Postgres behind them.", findErr)}
	}
	keep := pgcompute.KeepDir(dataFile)
	return sandboxPostgres{
		backing: pgcompute.NewOffline(pgcompute.NewKeptCluster(bin, keep), defaultPostgresAddr),
		line: fmt.Sprintf("Sandbox: the computes are real Postgres while neonform emulator -postgres -data %s -api-key %s serves this sandbox: their connection URIs (neonform output -json -connection-uris) connect through it at %s, and their data is kept in %s.",
			shellquote.Word(dataFile), sandboxKey, defaultPostgresAddr, shellquote.Word(keep)),
	}
}
