package command

import (
	"context"
	"errors"
	"strings"

	"github.com/urfave/cli/v2"
)

// stateSub is one state subcommand: its name, what it does, its arguments
// (as the usage line writes them, and how DIR is told from them), its
// flags and its run function.
type stateSub struct {
	name, usage, description string
	args                     stateArgs
	flags                    []cli.Flag
	run                      func(context.Context, stateOptions) error
}

func (s stateSub) command() *cli.Command {
	var extra []string
	for _, f := range s.flags {
		switch n := f.Names()[0]; n {
		case "lock-timeout": // commands() adds -lock to it
			extra = append(extra, "[-lock-timeout DURATION]", "[-lock=false]")
		default:
			extra = append(extra, "[-"+n+"]")
		}
	}
	usage := strings.Join(append([]string{"neonform state", s.name, s.args.usage}, extra...), " ")
	return &cli.Command{
		Name:        s.name,
		Usage:       s.usage,
		UsageText:   strings.Join(strings.Fields(usage), " ") + " [-var NAME=VALUE]... [-var-file FILE]...",
		Description: s.description,
		Flags:       append(stateFlags(), s.flags...),
		Action: func(c *cli.Context) error {
			o, err := stateOptionsFrom(c, s.args)
			if err != nil {
				return err
			}
			return s.run(c.Context, o)
		},
	}
}

func stateCommand() *cli.Command {
	subs := []stateSub{
		{name: "list", usage: "list the addresses in the state and their endpoints", args: listArgs,
			description: stateListDescription, flags: []cli.Flag{jsonFlag()}, run: runStateList},
		{name: "show", usage: "show what the state records for one address", args: fixedArgs("ADDR"),
			description: stateShowDescription, flags: []cli.Flag{jsonFlag()}, run: runStateShow},
		{name: "rm", usage: "stop managing computes, leaving their endpoints running", args: addressesArgs,
			description: stateRmDescription,
			flags:       []cli.Flag{dryRunFlag(), lockTimeoutFlag()}, run: runStateRm},
		{name: "mv", usage: "give state entries a new address, keeping their endpoints", args: fixedArgs("FROM TO"),
			description: stateMvDescription,
			flags:       []cli.Flag{dryRunFlag(), lockTimeoutFlag()}, run: runStateMv},
		{name: "pull", usage: "print the state as JSON", args: fixedArgs(""),
			description: statePullDescription, run: runStatePull},
		{name: "push", usage: "replace the state with one from a file", args: fixedArgs("FILE"),
			description: statePushDescription,
			flags:       []cli.Flag{&cli.BoolFlag{Name: "force", Usage: "replace a state of another lineage, or a newer one"}, lockTimeoutFlag()}, run: runStatePush},
	}
	cmds := make([]*cli.Command, len(subs))
	for i, s := range subs {
		cmds[i] = s.command()
	}
	return &cli.Command{
		Name:        "state",
		Usage:       "look at and edit the state: which endpoint each compute address manages",
		Description: stateDescription,
		Subcommands: cmds,
	}
}

func forceUnlockCommand() *cli.Command {
	return &cli.Command{
		Name:      "force-unlock",
		Usage:     "remove a state lock left behind by a run that died",
		UsageText: "neonform force-unlock LOCK_ID [DIR] [-var NAME=VALUE]... [-var-file FILE]...",
		Description: `An apply, import or state edit holds the state lock while it runs. A run that
was killed leaves it behind, and the next run refuses to start, naming the
lock's ID, holder and age. Once you are sure that run is gone, remove the
lock with its ID (the ID must match, so a lock taken since is not removed).

Example:
   neonform force-unlock 6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5`,
		Flags: stateFlags(),
		Action: func(c *cli.Context) error {
			o, err := stateOptionsFrom(c, fixedArgs("LOCK_ID"))
			if err != nil {
				return err
			}
			return runForceUnlock(c.Context, o)
		},
	}
}

func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON, for scripts"}
}

func dryRunFlag() cli.Flag {
	return &cli.BoolFlag{Name: "dry-run", Usage: "say what would change in the state, and write nothing"}
}

func stateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "var", Usage: "set a variable: `NAME=VALUE` (repeatable)"},
		&cli.StringSliceFlag{Name: "var-file", Usage: "read variables from `FILE` (repeatable)"},
	}
}

func stateOptionsFrom(c *cli.Context, shape stateArgs) (stateOptions, error) {
	own, dir, err := shape.split(c.Args().Slice())
	if err != nil {
		return stateOptions{}, argumentsError(c, err)
	}
	o := stateOptions{
		// Only the neonform block is read: it says where the state is. A
		// configuration mid-edit, or variables without values, do not matter.
		planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}, SettingsOnly: true},
		Args:       own,
		JSON:       c.Bool("json"), DryRun: c.Bool("dry-run"), Force: c.Bool("force"),
		Env: environmentOf(c), Stdin: c.App.Reader, Stdout: c.App.Writer, Stderr: c.App.ErrWriter,
	}
	if dir != "" {
		o.Dir = dir
	}
	remember(c, o.planInputs)
	o.LockTimeout, err = lockTimeoutOf(c)
	return o, err
}

// The help of state and its subcommands.
const (
	stateDescription = `The state records, for each compute address, the endpoint neonform manages
there and what it last applied. These commands read it, or edit it without
changing anything in the service. Each edit takes the state lock and writes a
new serial, so a plan saved before the edit is refused by apply.

DIR is the configuration directory (default: the current one); its neonform
block says where the state is.`

	stateListDescription = `Prints one line per compute in the state: its address, endpoint id and type.
With ADDR-PREFIX, only the computes at or under it: a project (shop), a
branch (shop.main, 'shop.previews["preview/pr-1"]') or a compute. With -json,
a JSON object whose "computes" list has, for each, its address, endpoint,
project, branch, type and host.

With one argument, an existing directory is DIR, anything else ADDR-PREFIX;
to list a prefix that is also the name of a directory here, give DIR too
(neonform state list shop .).

Examples:
   neonform state list
   neonform state list shop.main infra/
   neonform state list -json | jq -r '.computes[].host'`

	stateShowDescription = `Prints the state entry of ADDR: its endpoint, its host, project, branch, type
and what neonform last applied to it. With -json, the same as a JSON object.

Examples:
   neonform state show shop.main.primary
   neonform state show -json shop.main.primary | jq -r .host`

	stateRmDescription = `Removes each ADDR from the state, all or none: if one is not in the state,
nothing is removed. An ADDR that names a project or a branch (shop, shop.main)
removes every compute under it, as state mv moves them. The endpoints keep running; neonform forgets them. If a
compute block stays in the configuration, the next plan adopts its endpoint
again when it can (a branch's read_write endpoint, a read replica of the
same name) or creates a new one; remove the block too to let it go.

The last argument is DIR when it is a directory and not a compute address
(<project>.<branch>.<compute>); write a directory named like one as ./NAME.
With -dry-run, prints what it would remove and writes nothing.

Examples:
   neonform state rm shop.main.reports
   neonform state rm -dry-run shop.main
   neonform state rm -dry-run shop.main.reports 'shop.main.replicas["eu"]' infra/`

	stateMvDescription = `Moves the state entry at FROM to TO, keeping its endpoint: what a moved block
does, done once by hand. FROM and TO are two compute addresses, or two
branches (shop.preview-pr-1 to 'shop.previews["preview/pr-1"]'), or two
projects (analytics to data): then every compute under FROM moves to the
same place under TO. Nothing changes in the service; if TO's compute block is
on another branch, the next plan moves the endpoint there.

An endpoint stays in its project: between two project labels, the move is
made when the configuration in DIR gives TO's project block the id of the
endpoint's project (a renamed project block), and refused otherwise, saying
the ways to keep the endpoint. With -dry-run, prints what it would move and
writes nothing.

Examples:
   neonform state mv shop.main.reporting shop.main.reports
   neonform state mv shop.preview-pr-1 'shop.previews["preview/pr-1"]'
   neonform state mv -dry-run analytics data infra/`

	statePullDescription = `Prints the state that the configuration in DIR names, as the JSON document a
local state file holds (lineage, serial and every entry), to move it to
another backend with "neonform state push". It may hold the values of
sensitive variables that were applied: keep it as you keep the state. The
API key is never in it.

Example:
   neonform state pull > state.json`

	statePushDescription = `Replaces the state that the configuration in DIR names with the state in FILE
(as "neonform state pull" prints it; - reads standard input), keeping its
lineage and serial, under the state lock. Nothing changes in the service.

A state that records computes is replaced only by a newer one of its own
lineage: a different lineage, a lower serial, or the same serial with other
content is refused, and nothing is written. -force replaces it all the same
(the computes only the old state records are forgotten; their endpoints
keep running); a forced state never takes a serial below the old one's, so
plans saved before are refused by apply.

Moving the state from a file to Postgres:
   neonform state pull > state.json
   (set state = env("NEONFORM_STATE_URL") in the neonform block)
   neonform state push state.json`
)

// argumentsError is a mistake in a command's arguments, said as usageError
// says a mistake in its flags: "neonform state rm takes ...", then the
// command's usage line.
func argumentsError(c *cli.Context, err error) error {
	return errors.New(commandPath(c) + " " + err.Error() + "." + usageHelp(c))
}
