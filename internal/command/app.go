// Package command is neonform's command-line interface: urfave/cli commands
// and flags, one file per command (cmd_<name>.go), the plumbing they share
// (running a command, its exit code, the configuration it was given) and the
// terminal views. Each command is an options struct and a run function, so
// tests can call it without a terminal; the work itself lives in the other
// packages. Only the root's main.go and this package's cmd_*.go files import
// urfave/cli (cli_imports_test.go at the root checks it): a command's run
// function and what it calls take values, not a *cli.Context.
package command

import "github.com/neonform/neonform/internal/diag"

// exitError carries a specific exit code (for example 2 for plan
// -detailed-exitcode with changes, 3 for fmt -check) without printing anything more.
type exitError struct {
	code int
	msg  string
	// diags: the diagnostics already printed, for apply -json (reported).
	diags diag.Diagnostics
}

func (e *exitError) Error() string { return e.msg }
