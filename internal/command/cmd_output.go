package command

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/config"
)

func outputCommand() *cli.Command {
	return &cli.Command{
		Name:      "output",
		Usage:     "print each compute's endpoint and host from the state, for scripts and pipelines",
		UsageText: "neonform output [ADDR] [DIR] [-json [-connection-uris]] [-var NAME=VALUE]... [-var-file FILE]...",
		Description: `Prints, from the state alone (no API call, no API key), each managed compute's
address, endpoint id, host, project, branch, type and size: what a pipeline
hands to the job that connects to it. ADDR keeps the computes it names: an
exact address, or a project, a branch or a block that covers several
(shop, shop.main, shop.previews for every instance of a branch rule).

With one argument that is a directory here, it is DIR; to filter by a name
that is also a directory's, give both: neonform output shop .

-json prints an object keyed by address; each value has endpoint_id, host
(null until an apply records it), project_id, branch_id, branch_name (null
when the branch block names the branch by id), type, min_cu and max_cu. A
value that came from a variable declared sensitive is "(sensitive value from
var.NAME)" instead.

-connection-uris (with -json) adds connection_uri to each: the URI the
service gives for the branch's first database, as its owner, through the
compute, without the password (psql and pgx take it from PGPASSWORD or
~/.pgpass). It is read from the service, so it needs the API key; the state
never holds it.

Examples:
   neonform output
   neonform output -json | jq -r '."shop.main.primary".host'
   neonform output 'shop.previews["preview/pr-12"].primary' infra -json

Exit status: 0 success, 1 when ADDR names no compute of the state, or the
state cannot be read.`,
		Flags: append(stateFlags(), jsonFlag(),
			&cli.BoolFlag{Name: "connection-uris", Usage: "with -json, add each compute's connection URI, without its password, read from the service"}),
		Action: func(c *cli.Context) error {
			o, err := outputOptionsFrom(c)
			if err != nil {
				return err
			}
			return runOutput(c.Context, o)
		},
	}
}

func outputOptionsFrom(c *cli.Context) (outputOptions, error) {
	args := c.Args().Slice()
	o := outputOptions{stateOptions: stateOptions{
		// Only the neonform block is read: it says where the state is.
		planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}, SettingsOnly: true},
		JSON:       c.Bool("json"),
		Env:        environmentOf(c), Stdout: c.App.Writer, Stderr: c.App.ErrWriter,
	}, ConnectionURIs: c.Bool("connection-uris")}
	if o.ConnectionURIs && !o.JSON {
		return o, errors.New("-connection-uris adds connection_uri to the JSON output: add -json")
	}
	switch len(args) {
	case 0:
	case 1:
		if info, err := os.Stat(args[0]); err == nil && info.IsDir() {
			o.Dir = args[0]
		} else {
			o.Filter = args[0]
		}
	case 2:
		o.Filter, o.Dir = args[0], args[1]
	default:
		return o, fmt.Errorf("too many arguments: output takes an address and a directory, both optional (got %s)", strings.Join(args, " "))
	}
	remember(c, o.planInputs)
	if o.Filter != "" {
		if _, err := config.ParsePartialAddress(o.Filter); err != nil {
			return o, fmt.Errorf("output %s: %w%s", o.Filter, err, unquotedKeyHint(o.Filter))
		}
	}
	return o, nil
}
