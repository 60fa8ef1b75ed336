package views

import (
	"fmt"
	"io"
	"time"

	"github.com/neonform/neonform/internal/textsafe"
)

// What neonform emulator says, for people: the run (internal/command's
// emulator_run.go) gives the facts. A data file's path and a program's
// error are shown escaped (internal/textsafe).

// EmulatorIntro is what the emulator's introduction tells.
type EmulatorIntro struct {
	// Base is the API's base URL: http://HOST:PORT/api/v2.
	Base string
	// Key is the key the emulator generated; "" when -api-key gave one.
	Key string
	// DataFile is -data, "" for a world in memory only.
	DataFile string
	OpDelay  time.Duration
}

// WriteEmulatorIntro writes the base URL first (scripts read that line),
// then the key if it was generated (only then: a key given with -api-key
// is already known), then how to use it.
func WriteEmulatorIntro(w io.Writer, i *EmulatorIntro) {
	fmt.Fprintln(w, i.Base)
	keyRef := "<the key given with -api-key>"
	if i.Key != "" {
		fmt.Fprintf(w, "NEON_API_KEY=%s\n", i.Key)
		keyRef = "<the key above>"
	}
	data := "memory only (use -data FILE to keep it)"
	if i.DataFile != "" {
		data = textsafe.Terminal(i.DataFile)
	}
	fmt.Fprintf(w, `
The service's API is emulated at the URL above. World: %s; operations take %s.
Try it:
   export NEON_API_URL=%s NEON_API_KEY=%s
   curl -H "Authorization: Bearer $NEON_API_KEY" $NEON_API_URL/projects
   curl -H "Authorization: Bearer $NEON_API_KEY" -H "Content-Type: application/json" \
        -d '{"project":{"name":"shop"}}' $NEON_API_URL/projects
Request counts: %s/_emulator/stats
Stop with Ctrl-C.
`, data, i.OpDelay, i.Base, keyRef, i.Base[:len(i.Base)-len("/api/v2")])
}

// WriteEmulatorPostgres says how to connect to the computes of emulator
// -postgres through the proxy at addr; keptIn is where their data is kept
// when the emulator stops, "" when it is not.
func WriteEmulatorPostgres(w io.Writer, addr, keptIn string) {
	lives := "The data lives as long as this emulator (with -data FILE it is kept beside FILE)."
	if keptIn != "" {
		lives = fmt.Sprintf("The data is kept in %s when the emulator stops.", textsafe.Terminal(keptIn))
	}
	fmt.Fprintf(w, `Computes are real Postgres, through the proxy at %s: the connection_uri the API
gives connects (psql "$(curl -s -H "Authorization: Bearer $NEON_API_KEY" "$NEON_API_URL/projects/P/connection_uri?database_name=neondb&role_name=neondb_owner" | jq -r .uri)").
SQL over HTTP (the serverless driver's neon(), the MCP server's run_sql): POST http://%s/sql
(node: --import emulator/node/neon-local-sql.mjs).
%s
`, addr, addr, lives)
}

// WriteEmulatorNoPostgres says that -postgres found no PostgreSQL server
// (why: the search's error), and that the computes are records only.
func WriteEmulatorNoPostgres(w io.Writer, why error) {
	fmt.Fprintf(w, "Note: -postgres: %s; the computes are records only, as without -postgres (install PostgreSQL's server, e.g. apt-get install postgresql, for real ones).\n",
		textsafe.Terminal(why.Error()))
}

// WriteEmulatorRemote warns that the emulator listens on addr, which other
// machines may reach.
func WriteEmulatorRemote(w io.Writer, addr string) {
	fmt.Fprintf(w, "Warning: listening on %s, which other machines may reach: requests and keys travel in clear text. neonform itself sends keys over http:// only to loopback.\n", addr)
}

// WriteEmulatorStopped says the emulator stopped, and where its world is:
// in dataFile, or ("") nowhere.
func WriteEmulatorStopped(w io.Writer, dataFile string) {
	where := "the world was in memory only and is gone"
	if dataFile != "" {
		where = "the world is saved in " + textsafe.Terminal(dataFile)
	}
	fmt.Fprintf(w, "Emulator stopped; %s.\n", where)
}

// WriteEmulatorNotKept says the computes' data could not be kept beside
// the world file, and why.
func WriteEmulatorNotKept(w io.Writer, err error) {
	fmt.Fprintf(w, "Error: the computes' data could not be kept: %s\n", textsafe.Terminal(err.Error()))
}
