// Command neonform manages the compute endpoints of a hosted-Postgres service
// (Neon API v2) as code: HCL files in Git say which computes each branch should
// have; plan shows what would change and what each change does to running
// clients; apply carries a plan out in order.
//
// This package holds the CLI only: urfave/cli commands and flags, one file per
// command (cmd_<name>.go). Each command is an options struct and a run function
// so tests can call it without a terminal; the work itself lives in the packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/urfave/cli/v2"
)

func main() {
	// neonform runs briefly and does most of its work in one burst of short-lived
	// allocations (the HCL parser's tokens): a less eager garbage collector cuts
	// the CPU of loading a large configuration by a third, for some more memory
	// (docs/PERFORMANCE.md). A GOGC set in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// That eagerness has a ceiling: past 768 MiB the collector works harder
	// instead, so that the largest configuration neonform reads (config.MaxBytes)
	// stays under 1 GB (docs/PERFORMANCE.md). A GOMEMLIMIT set in the environment wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(768 << 20)
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// exitError carries a specific exit code (for example 2 for plan
// -detailed-exitcode with changes, 3 for fmt -check) without printing anything more.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// run is main without os.Exit, so testscript and tests can call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	// A write to a closed standard output returns an error instead of killing
	// the process: an apply piped into head must finish its step and release
	// the lock, not die between two API calls.
	signal.Ignore(syscall.SIGPIPE)

	app := newApp(stdin, stdout, stderr)
	err := app.RunContext(ctx, interspersed(app, args))
	if err == nil {
		if app.Metadata["failed"] == true {
			return 1
		}
		return 0
	}
	// The command's suggestions point at the configuration it was given.
	cfgArgs, _ := app.Metadata[configArgsKey].(configArgs)
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, cfgArgs.complete(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "Error: %s\n", cfgArgs.complete(err.Error()))
	return 1
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "neonform",
		Usage: "manage hosted-Postgres compute endpoints as code",
		Description: `neonform reads HCL files that say which computes each branch should have,
compares them with the live endpoints, and shows exactly what would change,
marking every change that restarts, suspends, recreates or deletes a compute.

Try it offline, against the built-in emulator:
   neonform apply -auto-approve examples/quickstart

Flags go before or after a command's arguments; after --, every word is an
argument, even one that starts with "-".

Environment:
   NEON_API_KEY         the API key (never printed, logged or saved)
   NEON_API_URL         overrides api_url ("embedded" = the built-in sandbox)
   NEONFORM_VAR_<name>  a value for variable <name>
   NO_COLOR             no colour in any output`,
		Version:              version,
		Metadata:             map[string]any{},
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		// A -var value is one value: urfave/cli would split "-var 'zones=[\"a\", \"b\"]'"
		// and "-var label=a,b" on their commas. Repeat the flag for several.
		DisableSliceFlagSeparator: true,
		// Errors are printed once, by run, with the right exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       commands(),
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(c.App.ErrWriter, "neonform: unknown command %q. Run 'neonform --help' to see the commands.\n", name)
			c.App.Metadata["failed"] = true
		},
	}
}

// commands lists the subcommands in the order --help shows them.
func commands() []*cli.Command {
	return []*cli.Command{
		validateCommand(),
		fmtCommand(),
		planCommand(),
		showCommand(),
		applyCommand(), importCommand(), stateCommand(), forceUnlockCommand(),
		emulatorCommand(),
		versionCommand(),
	}
}
