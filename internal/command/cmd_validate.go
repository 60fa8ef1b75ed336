package command

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check the configuration without touching the service",
		UsageText: "neonform validate [-json] [-var NAME=VALUE]... [-var-file FILE]... [DIR]",
		Description: `Reads every *.hcl file in DIR (default: the current directory) and runs every
check that needs no network: syntax, unknown attributes and blocks, types,
variables and functions, compute sizes (allowed values, autoscaling range,
free-plan cap), one read_write compute per branch, unique names, durations,
and moved blocks. It never calls the API and needs no API key.

On success it prints a summary and, for each compute, its address, type and
what its size gives (CU, RAM, connections), and, when the account's plan or
price_per_cu_hour gives a price (or account_tier = "free" its included
CU-hours), what it may cost a month (docs/cost.md). Errors show the file, line and
column, the offending line, and how to fix it. Exit code 0 when valid, 1 if not.

Variables get their values as in plan, the first of these that gives one:
-var, then -var-file, then the environment (NEONFORM_VAR_<name>), then the
variable's default.

Flags may come before or after DIR; a DIR whose name starts with "-" goes
after --.

-json prints the result for editors and CI instead:
   {"valid": false, "error_count": 1, "warning_count": 0,
    "diagnostics": [{"severity": "error", "summary": "...", "detail": "...",
                     "range": {"filename": "main.hcl",
                               "start": {"line": 9, "column": 14, "byte": 170},
                               "end": {"line": 9, "column": 17, "byte": 173}}}]}

Examples:
   neonform validate
   neonform validate examples/multi-branch
   neonform validate -var-file prod.vars -var replica_cu=2
   neonform validate -json > validate.json`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON on standard output"},
			&cli.StringSliceFlag{Name: "var", Usage: "set a variable: -var NAME=VALUE (repeatable)"},
			&cli.StringSliceFlag{Name: "var-file", Usage: "read variable values from a file (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) > 1 {
				return fmt.Errorf("validate checks one directory; got %d arguments. Example: neonform validate examples/quickstart", len(args))
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runValidate(c.Context, validateOptions{
				Dir:      dir,
				Chdir:    c.String("chdir"),
				JSON:     c.Bool("json"),
				Vars:     c.StringSlice("var"),
				VarFiles: c.StringSlice("var-file"),
				Env:      environmentOf(c),
				Stdout:   c.App.Writer,
				Stderr:   c.App.ErrWriter,
			})
		},
	}
}
