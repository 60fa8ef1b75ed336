package command

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "record an existing endpoint in the state as a configured compute",
		UsageText:   "neonform import ADDR ENDPOINT_ID [DIR] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-var NAME=VALUE]... [-var-file FILE]...",
		Description: importDescription,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "var", Usage: "set a variable: `NAME=VALUE` (repeatable)"},
			&cli.StringSliceFlag{Name: "var-file", Usage: "read variables from `FILE` (repeatable)"},
			lockTimeoutFlag(), waitTimeoutFlag(), debugFlag(), quietInputFlag(),
		},
		Action: func(c *cli.Context) error {
			o, err := importOptionsFrom(c)
			if err != nil {
				return err
			}
			return runImport(c.Context, o)
		},
	}
}

// importOptionsFrom reads import's flags, its address, endpoint id and
// directory.
func importOptionsFrom(c *cli.Context) (importOptions, error) {
	args := c.Args().Slice()
	if len(args) < 2 || len(args) > 3 {
		return importOptions{}, fmt.Errorf("import takes an address, an endpoint id and optionally a directory, as in: neonform import shop.main.reports ep-cool-darkness-a5b6c7d8")
	}
	o := importOptions{
		planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}},
		Address:    args[0], EndpointID: args[1],
		Env: environmentOf(c), Stdout: c.App.Writer, Stderr: c.App.ErrWriter,
	}
	if len(args) == 3 {
		o.Dir = args[2]
	}
	remember(c, o.planInputs)
	var err error
	if o.LockTimeout, err = lockTimeoutOf(c); err != nil {
		return o, err
	}
	if o.WaitTimeout, err = waitTimeoutOf(c); err != nil {
		return o, err
	}
	return o, nil
}

const importDescription = `Makes neonform manage an endpoint that already exists: it records in the state
that the compute at ADDR (<project>.<branch>.<compute>, declared in the
configuration in DIR, default the current directory) is the endpoint
ENDPOINT_ID. Nothing changes in the service.

The endpoint must exist in the compute's project, be on the compute's branch,
and be of its type (read_write or read_only); otherwise import says what
differs and records nothing. ADDR must not be in the state yet, and the
endpoint must not be recorded under another address (use "neonform state mv"
to rename an entry).

Afterwards "neonform plan" shows how the endpoint differs from its compute
block; the next apply changes it to match, without recreating it.

Plan adopts some endpoints by itself (a branch's read_write endpoint, a read
replica whose name is the compute's name); import is for the others, such as
a replica with another name.

Examples:
   neonform import shop.main.reports ep-cool-darkness-a5b6c7d8
   neonform import shop.main.reports ep-cool-darkness-a5b6c7d8 infra/`
