package command

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/internal/pgtest"
)

// TestMain lets the test binary act as the neonform command inside testscript
// scripts. Every plan file the neonform of the CLI scenarios writes, and
// every plan it prints, is checked against the plan file's schema
// (runChecked).
func TestMain(m *testing.M) {
	testscript.Main(stoppingPostgres{m}, map[string]func(){
		"neonform": func() { os.Exit(runChecked(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// stoppingPostgres runs the tests, then stops the Postgres server a script
// may have started (pgstate): testscript.Main exits when they end.
type stoppingPostgres struct{ m *testing.M }

func (s stoppingPostgres) Run() int {
	defer pgtest.Stop()
	return s.m.Run()
}

// TestScript runs every testdata/script/*.txtar: each is a shell session with its
// input files inline and golden outputs; reading them is reading the manual.
// Run with -update to rewrite the golden outputs from what the commands print.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t))
}
