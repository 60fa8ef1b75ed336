package views

import (
	"fmt"
	"io"
	"strconv"

	"github.com/neonform/neonform/internal/shellquote"
	"github.com/neonform/neonform/internal/textsafe"
)

// What the embedded sandbox (api_url = "embedded") says it made, on the
// run's standard error. Labels, ids, branch names and paths come from the
// configuration: shown escaped (internal/textsafe).

// SandboxPostgres is what the sandbox's computes are: records only (Missing,
// why PostgreSQL's server programs were not found), or real Postgres while
// neonform emulator -postgres serves the sandbox's world file.
type SandboxPostgres struct {
	Missing error
	// DataFile is the sandbox's world file, Key its key, Addr the address
	// of the emulator's Postgres proxy and KeptIn where the data is kept.
	DataFile, Key, Addr, KeptIn string
}

// WriteSandboxPostgres says what the sandbox's computes are, and how to
// connect to them or to have real Postgres behind them.
func WriteSandboxPostgres(w io.Writer, pg *SandboxPostgres) {
	if pg.Missing != nil {
		fmt.Fprintf(w, "Sandbox: the computes are records only, and their connection URIs open nothing: %s; install PostgreSQL's server (Debian, Ubuntu: apt-get install postgresql) to have real Postgres behind them.\n",
			textsafe.Terminal(pg.Missing.Error()))
		return
	}
	fmt.Fprintf(w, "Sandbox: the computes are real Postgres while neonform emulator -postgres -data %s -api-key %s serves this sandbox: their connection URIs (neonform output -json -connection-uris) connect through it at %s, and their data is kept in %s.\n",
		textsafe.Terminal(shellquote.Word(pg.DataFile)), pg.Key, pg.Addr, textsafe.Terminal(shellquote.Word(pg.KeptIn)))
}

// WriteSandboxProject says the sandbox created the project label (id) with
// its default branch and its primary compute.
func WriteSandboxProject(w io.Writer, label, id string) {
	fmt.Fprintf(w, "Sandbox: created project %s (%s) with branch \"main\" and its primary compute.\n", textsafe.Terminal(label), textsafe.Terminal(id))
}

// WriteSandboxBranch says the sandbox created branch name in the project
// labelled project; for the branches block rule ("" for a branch block).
func WriteSandboxBranch(w io.Writer, name, project, rule string) {
	forRule := ""
	if rule != "" {
		forRule = ", for the branches block " + textsafe.Terminal(strconv.Quote(rule))
	}
	fmt.Fprintf(w, "Sandbox: created branch %s in project %s%s.\n", textsafe.Terminal(strconv.Quote(name)), textsafe.Terminal(project), forRule)
}

// WriteSandboxStopped says the sandbox stopped serving, and why.
func WriteSandboxStopped(w io.Writer, err error) {
	fmt.Fprintf(w, "embedded sandbox stopped: %s\n", textsafe.Terminal(err.Error()))
}
