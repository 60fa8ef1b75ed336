package command

import (
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/pgserver"
)

// sandboxPostgres is the real Postgres behind the embedded sandbox's computes
// (docs/emulator.md, The embedded sandbox). The sandbox lives for one command,
// too short for anyone to connect, so it serves no connection itself: its
// computes' data is kept beside its world file (pgcompute.KeepDir), their
// connection URIs name the proxy of neonform emulator -postgres at its default
// address, and that emulator, run over the same world file, serves them for as
// long as it runs. In the sandbox itself a new branch gets a copy of its
// parent's kept data. Without PostgreSQL's server programs the computes are
// records, as before, and what it says says so and how to change it.
type sandboxPostgres struct {
	backing emulator.Postgres // nil: records only
	// say is what the sandbox says about its computes, once (nil once said).
	say *views.SandboxPostgres
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
		return sandboxPostgres{say: &views.SandboxPostgres{Missing: findErr}}
	}
	keep := pgcompute.KeepDir(dataFile)
	return sandboxPostgres{
		backing: pgcompute.NewOffline(pgcompute.NewKeptCluster(bin, keep), defaultPostgresAddr),
		say:     &views.SandboxPostgres{DataFile: dataFile, Key: sandboxKey, Addr: defaultPostgresAddr, KeptIn: keep},
	}
}
