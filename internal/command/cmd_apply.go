package command

import (
	"github.com/urfave/cli/v2"
)

func applyCommand() *cli.Command {
	return &cli.Command{
		Name:  "apply",
		Usage: "carry out the changes, in order, waiting for each and recording it in the state",
		UsageText: `neonform apply [DIR] [-auto-approve] [-input=false] [-json] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-parallelism N] [-refresh-branches] [-target ADDR]... [-replace ADDR]... [-destroy] [-var NAME=VALUE]... [-var-file FILE]...
neonform apply PLANFILE [DIR] [-json] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-parallelism N]`,
		Description: applyDescription,
		Flags: append(planFlags(),
			&cli.BoolFlag{Name: "auto-approve", Usage: "apply without asking (needed when there is no terminal to ask on)"},
			inputFlag(),
			lockTimeoutFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object a line for every event on standard output, for a deployment tool (docs/plan-format.md); the rest goes to standard error"},
		),
		Action: func(c *cli.Context) error {
			o, err := applyOptionsFrom(c)
			if err != nil {
				return err
			}
			return runApply(c.Context, o)
		},
	}
}

func applyOptionsFrom(c *cli.Context) (o applyOptions, err error) {
	if err := checkParallelism(c); err != nil {
		return applyOptions{}, err
	}
	lockTimeout, err := lockTimeoutOf(c)
	if err != nil {
		return applyOptions{}, err
	}
	waitTimeout, err := waitTimeoutOf(c)
	if err != nil {
		return applyOptions{}, err
	}
	interactive, noAsk := canAsk(c)
	// Whatever is decided below, the run's suggestions point at its configuration.
	defer func() { remember(c, o.planInputs) }()
	o = applyOptions{
		planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}, Parallelism: c.Int("parallelism"),
			RefreshBranches: c.Bool("refresh-branches"), LiveProgress: isTerminal(c.App.ErrWriter), LockTimeout: lockTimeout, WaitTimeout: waitTimeout},
		AutoApprove: c.Bool("auto-approve"),
		JSON:        c.Bool("json"),
		Env:         environmentOf(c),
		Stdin:       c.App.Reader,
		Stdout:      c.App.Writer,
		Stderr:      c.App.ErrWriter,
		Interactive: interactive,
		NoAsk:       noAsk,
		Live:        isTerminal(c.App.Writer),
		Color:       environmentOf(c).color(c.App.Writer),
	}
	if o.Scope, err = scopeFrom(c); err != nil {
		return o, err
	}
	// Assigned before the return, so that the deferred remember records the
	// directory the arguments give.
	err = o.takeArgs(c.Args().Slice())
	return o, err
}

const applyDescription = `With a directory (default: the current one), apply makes a plan as "neonform
plan" does, shows it, asks for "yes", and carries it out. Without a terminal to
ask on, or with -input=false, it needs -auto-approve, or a saved plan, unless
the plan has nothing to review (adopting endpoints that match their
configuration, forgetting ones deleted outside neonform): that it carries out.

-target, -replace and -destroy make the plan as they do for "neonform plan";
"neonform apply -destroy" is "neonform destroy". A budget block holds a -target
plan to the whole account (the computes outside its targets as they are now).

With a plan file saved by "neonform plan -out FILE", it carries out exactly that
plan, without asking: the plan is what was reviewed. DIR is the configuration
the plan was made from (default: the current directory); it says where the
state is. A plan is refused, and nothing is changed, when the state entries or
the live endpoints of a project it changes changed since it was made; the error
says what changed. Writes to other projects (a preview applied with -target, a
state command elsewhere) leave it current.

How it runs: the steps of one project run one at a time, each waiting until
the service's operations for it finish; projects run in parallel, at most
-parallelism at once. The state is written after every step. A step that
fails stops the rest of its project; other projects go on. The end says what
was done, what failed and why, and what was not attempted; "neonform plan"
then shows exactly what remains.

-json prints one JSON object a line on standard output for every event (the
plan's summary, each step started, done or failed, each state write, the end
with its counts), for a deployment tool; the rest goes to standard error. It
cannot ask, so like apply without a terminal it carries out only a plan with
nothing to review, unless given -auto-approve or a plan file. -lock-timeout 2m
waits for a state lock another run holds instead of failing at once;
-lock=false runs without the lock (only when nothing else can change the state
meanwhile). With a Postgres state, apply locks only the projects its plan
changes (in the order of their ids), so runs on other projects go on meanwhile;
a run on a held project is told who holds which project. Requests are paced
within the account's rate limits, a budget shared with the other runs on the
account (through the database with a Postgres state, else through a file on
this machine).

Interrupt (Ctrl-C, SIGTERM or SIGHUP): no new step starts, the steps in flight
finish and are recorded, and apply exits 1 saying what is left. A second
interrupt exits at once. At the question, an interrupt cancels at once.

Examples:
   neonform apply                                  # plan, show, ask, apply
   neonform apply -auto-approve examples/quickstart
   neonform plan -out plan.json infra/ && neonform apply plan.json infra/
   neonform apply -json plan.json infra/ | jq -r 'select(.type == "step_failed") | .error'

Exit status: 0 every step done (or nothing to do), 1 otherwise.`
