package command

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/diff/view"
)

// Exit codes of plan -detailed-exitcode, as Terraform's.
const exitChanges = 2

// markdownLimit keeps a pull-request comment under GitHub's 65,535 characters.
const markdownLimit = view.DefaultMarkdownLimit

func planCommand() *cli.Command {
	return &cli.Command{
		Name:      "plan",
		Usage:     "show what would change, and what each change does to running computes",
		UsageText: "neonform plan [DIR] [-out FILE] [-format human|json|markdown] [-json] [-detailed-exitcode] [-var NAME=VALUE]... [-var-file FILE]... [-parallelism N] [-refresh-branches] [-target ADDR]... [-replace ADDR]... [-destroy] [-verbose] [-wait-timeout DURATION]",
		Description: `Reads the configuration in DIR (default: the current directory), the state, and
the live endpoints, and shows every change that apply would make. Each change is
marked with what it does to running clients: restart (drops connections),
suspend, recreate (new host: connection strings change) or delete, and whether
the compute is active now or idle. Nothing is changed in the service or the state.

With -out the plan is saved; "neonform apply FILE" then carries out exactly that
plan, or refuses it if the state entries or the live endpoints of a project it
changes changed since (a run that wrote only other projects leaves it current).

-target ADDR plans only the computes ADDR covers (a project, project.branch, or
a compute; without ["key"], every instance), reading only their projects: the
plan says it is partial. -replace ADDR plans that compute as a replacement (new
endpoint and host) even if nothing in it changed. -destroy plans the deletion
of every compute the state manages ("neonform destroy" applies that). A budget
block holds a -target or -replace plan to the whole account: the computes
outside its targets count as they are now.

Requests are paced within the account's rate limits (700 a minute, 40 a second
a route), a budget shared with the other runs on the account: through the
database with a Postgres state, else through a file on this machine.

-json is -format json. plan reads the state without its lock: it takes
-lock=false, -lock-timeout and -input=false, as Terraform's plan does, and
they change nothing.

It needs NEON_API_KEY, unless api_url = "embedded" (or NEON_API_URL=embedded):
then it runs against the built-in sandbox, no account or network needed.

Examples:
   neonform plan
   neonform plan -out plan.json infra/
   neonform plan -format markdown > comment.md      # for a pull-request comment
   neonform plan -detailed-exitcode                 # exit 2 when there are changes
   neonform plan -target shop.main                  # only the computes of one branch
   neonform plan -replace shop.main.reports -out plan.json
   neonform plan -destroy -out plan.json

Exit status: 0 success, 1 error, 2 changes present (with -detailed-exitcode); a
plan with nothing to review (adopting endpoints that match their configuration,
forgetting ones deleted outside neonform) exits 0.`,
		Flags: append(append(planFlags(), planLockFlags()...),
			&cli.StringFlag{Name: "out", Usage: "save the plan to `FILE` (JSON, mode 0600) for apply"},
			formatFlag(), jsonFormatFlag(),
			&cli.BoolFlag{Name: "detailed-exitcode", Usage: "exit 2 when the plan has changes, 0 when it has none"},
			&cli.BoolFlag{Name: "verbose", Usage: "also list the computes that do not change"},
			quietInputFlag(),
		),
		Action: func(c *cli.Context) error {
			in, err := planInputsFrom(c)
			if err != nil {
				return err
			}
			format, err := formatOf(c)
			if err != nil {
				return err
			}
			if _, err := lockTimeoutOf(c); err != nil {
				return err
			}
			o := planOptions{
				planInputs:       in,
				Out:              c.String("out"),
				Format:           format,
				DetailedExitCode: c.Bool("detailed-exitcode"),
				Verbose:          c.Bool("verbose"),
				Env:              environmentOf(c),
				Stdout:           c.App.Writer,
				Stderr:           c.App.ErrWriter,
				Color:            environmentOf(c).color(c.App.Writer),
			}
			return runPlan(c.Context, o)
		},
	}
}

// planFlags are the flags shared by plan and apply.
func planFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "var", Usage: "set a variable: `NAME=VALUE` (repeatable)"},
		&cli.StringSliceFlag{Name: "var-file", Usage: "read variables from `FILE` (repeatable)"},
		&cli.IntFlag{Name: "parallelism", Usage: "how many projects (`N`) to read or change at once, at most: by default 4 read at once, and as many changed at once as keep the request budget busy"},
		&cli.BoolFlag{Name: "refresh-branches", Usage: "list every project's branches, so that each branch block is found by its name again rather than as the state records it"},
		debugFlag(),
		waitTimeoutFlag(),
		&cli.StringSliceFlag{Name: "target", Usage: "plan only the computes of `ADDR`: a project, project.branch or a compute address (repeatable); the plan is partial"},
		&cli.StringSliceFlag{Name: "replace", Usage: "plan the compute at `ADDR` as a replacement (new endpoint, new host) even if nothing in it changed (repeatable)"},
		&cli.BoolFlag{Name: "destroy", Usage: "plan the deletion of every compute the state manages"},
	}
}

// checkParallelism refuses a -parallelism given below 1; not given, it is 0:
// the defaults of reading (api.DefaultParallelReads) and applying (apply's
// budget).
func checkParallelism(c *cli.Context) error {
	if c.IsSet("parallelism") && c.Int("parallelism") < 1 {
		return fmt.Errorf("-parallelism must be at least 1")
	}
	return nil
}

func planInputsFrom(c *cli.Context) (planInputs, error) {
	if c.NArg() > 1 {
		return planInputs{}, fmt.Errorf("too many arguments: %s takes one directory (got %s)", c.Command.Name, strings.Join(c.Args().Slice(), " "))
	}
	dir := c.Args().First()
	if dir == "" {
		dir = "."
	}
	if err := checkParallelism(c); err != nil {
		return planInputs{}, err
	}
	in := planInputs{Dir: dir, Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}, Parallelism: c.Int("parallelism"),
		RefreshBranches: c.Bool("refresh-branches"), LiveProgress: isTerminal(c.App.ErrWriter)}
	remember(c, in)
	var err error
	if in.WaitTimeout, err = waitTimeoutOf(c); err != nil {
		return planInputs{}, err
	}
	in.Scope, err = scopeFrom(c)
	return in, err
}
