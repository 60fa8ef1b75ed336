package command

import (
	"os"

	"github.com/urfave/cli/v2"
)

// environmentOf is the environment of the command c runs: the process's,
// with -no-color and -debug as given to the command or before it.
func environmentOf(c *cli.Context) environment {
	e := newEnvironment(os.Environ())
	e.noColor, e.debug = givenAnywhere(c, "no-color"), givenAnywhere(c, "debug")
	e.noLock = c.IsSet("lock") && !c.Bool("lock")
	return e
}

// givenAnywhere reports a boolean flag given to the command or before it
// (neonform -no-color plan): both define it, and c.Bool reads only the
// nearest definition.
func givenAnywhere(c *cli.Context, name string) bool {
	for _, x := range c.Lineage() {
		if x.Bool(name) {
			return true
		}
	}
	return false
}

// debugFlag is -debug, for the commands that call the service and for the
// root (neonform -debug plan).
func debugFlag() cli.Flag {
	return &cli.BoolFlag{Name: "debug", Usage: "print one line per API call on standard error: method, path, status, duration, retries, request id (as NEONFORM_LOG=debug)"}
}
