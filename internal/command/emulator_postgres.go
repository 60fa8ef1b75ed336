package command

import (
	"fmt"
	"io"
	"net"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/apiurl"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/pgserver"
)

// emulatorPostgres is the real Postgres behind the computes of neonform emulator
// -postgres (docs/emulator.md, Real Postgres behind the computes): the proxy clients
// connect to and the cluster it starts on the first connection.
type emulatorPostgres struct {
	proxy   *pgcompute.Proxy
	cluster *pgcompute.Cluster
}

// startEmulatorPostgres takes the proxy's address. Without PostgreSQL's server
// programs it returns nil and says on notes that the computes are records
// only, as without -postgres: everything else works as before. With a world file
// (dataFile), the branches' data is kept beside it between runs
// (pgcompute.KeepDir).
func startEmulatorPostgres(addr string, allowRemote bool, dataFile string, notes io.Writer) (*emulatorPostgres, error) {
	bin, err := pgserver.FindBin()
	if err != nil {
		views.WriteEmulatorNoPostgres(notes, err)
		return nil, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-postgres-addr %q is not HOST:PORT, e.g. 127.0.0.1:5433 (or port 0 for a free one)", addr)
	}
	if !allowRemote && !apiurl.Loopback(host) {
		return nil, fmt.Errorf("-postgres-addr %s would listen where other machines may reach it; %s", addr, remoteAdvice)
	}
	cluster := pgcompute.NewCluster(bin)
	if dataFile != "" {
		cluster = pgcompute.NewKeptCluster(bin, pgcompute.KeepDir(dataFile))
	}
	proxy, err := pgcompute.Listen(addr, cluster)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s for Postgres clients: %w; choose another port with -postgres-addr, or 127.0.0.1:0 for a free one", addr, err)
	}
	return &emulatorPostgres{proxy: proxy, cluster: cluster}, nil
}

// serve accepts clients for emu's computes until stop.
func (pg *emulatorPostgres) serve(emu *emulator.Emulator) {
	go pg.proxy.Serve(emu)
}

// stop closes the clients' connections and stops the cluster, keeping its data
// beside the world file (-data), else throwing it away; a failure to keep it is
// said on stderr.
func (pg *emulatorPostgres) stop(stderr io.Writer) {
	pg.proxy.Close()
	if err := pg.cluster.Keep(); err != nil {
		views.WriteEmulatorNotKept(stderr, err)
	}
	pg.cluster.Stop()
}

// keptIn is where the computes' data is kept when the emulator stops: beside
// the world file dataFile, or ("") nowhere.
func (pg *emulatorPostgres) keptIn(dataFile string) string {
	if dataFile == "" {
		return ""
	}
	return pgcompute.KeepDir(dataFile)
}
