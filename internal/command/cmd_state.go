package command

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// stateOptions are the inputs of the state subcommands and force-unlock.
type stateOptions struct {
	planInputs
	// Args are the subcommand's own arguments, DIR taken off.
	Args []string
	// JSON: state list and show print JSON, for scripts.
	JSON bool
	// DryRun: state rm and mv say what they would do and write nothing.
	DryRun bool
	// Force: state push replaces a state it would refuse.
	Force  bool
	Env    environment
	Stdin  io.Reader // state push -
	Stdout io.Writer
	Stderr io.Writer
}

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
			description: `Prints one line per compute in the state: its address, endpoint id and type.
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
   neonform state list -json | jq -r '.computes[].host'`, flags: []cli.Flag{jsonFlag()}, run: runStateList},
		{name: "show", usage: "show what the state records for one address", args: fixedArgs("ADDR"),
			description: `Prints the state entry of ADDR: its endpoint, its host, project, branch, type
and what neonform last applied to it. With -json, the same as a JSON object.

Examples:
   neonform state show shop.main.primary
   neonform state show -json shop.main.primary | jq -r .host`, flags: []cli.Flag{jsonFlag()}, run: runStateShow},
		{name: "rm", usage: "stop managing computes, leaving their endpoints running", args: addressesArgs,
			description: `Removes each ADDR from the state, all or none: if one is not in the state,
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
   neonform state rm -dry-run shop.main.reports 'shop.main.replicas["eu"]' infra/`,
			flags: []cli.Flag{dryRunFlag(), lockTimeoutFlag()}, run: runStateRm},
		{name: "mv", usage: "give state entries a new address, keeping their endpoints", args: fixedArgs("FROM TO"),
			description: `Moves the state entry at FROM to TO, keeping its endpoint: what a moved block
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
   neonform state mv -dry-run analytics data infra/`,
			flags: []cli.Flag{dryRunFlag(), lockTimeoutFlag()}, run: runStateMv},
		{name: "pull", usage: "print the state as JSON", args: fixedArgs(""),
			description: `Prints the state that the configuration in DIR names, as the JSON document a
local state file holds (lineage, serial and every entry), to move it to
another backend with "neonform state push". It may hold the values of
sensitive variables that were applied: keep it as you keep the state. The
API key is never in it.

Example:
   neonform state pull > state.json`, run: runStatePull},
		{name: "push", usage: "replace the state with one from a file", args: fixedArgs("FILE"),
			description: `Replaces the state that the configuration in DIR names with the state in FILE
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
   neonform state push state.json`,
			flags: []cli.Flag{&cli.BoolFlag{Name: "force", Usage: "replace a state of another lineage, or a newer one"}, lockTimeoutFlag()}, run: runStatePush},
	}
	cmds := make([]*cli.Command, len(subs))
	for i, s := range subs {
		cmds[i] = s.command()
	}
	return &cli.Command{
		Name:  "state",
		Usage: "look at and edit the state: which endpoint each compute address manages",
		Description: `The state records, for each compute address, the endpoint neonform manages
there and what it last applied. These commands read it, or edit it without
changing anything in the service. Each edit takes the state lock and writes a
new serial, so a plan saved before the edit is refused by apply.

DIR is the configuration directory (default: the current one); its neonform
block says where the state is.`,
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

// openStateOf opens the state that the configuration in o.Dir names.
func openStateOf(ctx context.Context, o stateOptions) (state.Backend, error) {
	cfg, err := loadConfig(ctx, o.planInputs, o.Env, o.Stderr)
	if err != nil {
		return nil, err
	}
	return openState(ctx, cfg, o.Env)
}

// readState reads the state that the configuration in o.Dir names.
func readState(ctx context.Context, o stateOptions) (*state.State, string, error) {
	b, err := openStateOf(ctx, o)
	if err != nil {
		return nil, "", err
	}
	defer closeBackend(b)
	st, err := b.Read(ctx)
	return st, b.Describe(), err
}

func runStateList(ctx context.Context, o stateOptions) error {
	prefix := ""
	if len(o.Args) > 0 {
		prefix = o.Args[0]
		if _, err := config.ParsePartialAddress(prefix); err != nil {
			return refuseAt(o.Stderr, o.Env, configArgsOf(o.planInputs), prefix, "Invalid address", err.Error()+unquotedKeyHint(prefix))
		}
	}
	st, where, err := readState(ctx, o)
	if err != nil {
		return err
	}
	var addrs []string
	for _, addr := range st.Addresses() {
		// As output and -target read an address: a part without a key
		// covers every instance of its block.
		if prefix == "" || diff.Covers(prefix, addr) {
			addrs = append(addrs, addr)
		}
	}
	if o.JSON {
		list := make([]stateEntryJSON, 0, len(addrs))
		for _, addr := range addrs {
			list = append(list, entryJSON(addr, st.Computes[addr]))
		}
		return writeJSON(o.Stdout, struct {
			Computes []stateEntryJSON `json:"computes"`
		}{list})
	}
	switch {
	case len(st.Computes) == 0:
		fmt.Fprintf(o.Stderr, "The state (%s) records no computes.\n", where)
		return nil
	case len(addrs) == 0:
		// A state file's text is shown escaped (internal/textsafe).
		fmt.Fprintf(o.Stderr, "The state (%s) records no computes under %s; %s.\n", where, textsafe.Terminal(o.Args[0]), textsafe.Terminal(someAddresses(st)))
		return nil
	}
	tw := tabwriter.NewWriter(o.Stdout, 0, 0, 2, ' ', 0)
	for _, addr := range addrs {
		c := st.Computes[addr]
		// A state file's text is shown escaped (internal/textsafe).
		fmt.Fprintf(tw, "%s\t%s\t%s\n", textsafe.Terminal(addr), textsafe.Terminal(c.EndpointID), textsafe.Terminal(shownType(c)))
	}
	return tw.Flush()
}

func runStateShow(ctx context.Context, o stateOptions) error {
	st, _, err := readState(ctx, o)
	if err != nil {
		return err
	}
	addr := o.Args[0]
	c := st.Computes[addr]
	if c == nil {
		return refuse(o.Stderr, o.Env, configArgsOf(o.planInputs), notInState(addr, st))
	}
	if o.JSON {
		return writeJSON(o.Stdout, entryJSON(addr, c))
	}
	w := o.Stdout
	row := func(indent, name string, value any) {
		fmt.Fprintf(w, "%s%-*s  %s\n", indent, 21-len(indent), name, textsafe.Terminal(fmt.Sprint(value)))
	}
	fmt.Fprintln(w, textsafe.Terminal(addr)) // a state file's text is shown escaped (internal/textsafe)
	row("  ", "endpoint_id", c.EndpointID)
	if c.Host != "" {
		row("  ", "host", c.Host)
	}
	row("  ", "project_id", c.ProjectID)
	row("  ", "prevent_destroy", c.PreventDestroy)
	if c.BranchName != "" {
		row("  ", "branch_name", c.BranchName)
	}
	fmt.Fprintln(w, "  applied:")
	for _, r := range diff.AppliedValues(c).RowsHiding(diff.SecretsOf(c)) {
		row("    ", r.Name, r.Value)
	}
	return nil
}

// notInState is the diagnostic of an address the state does not record.
func notInState(addr string, st *state.State) diag.Diagnostic {
	return diag.AtAddress(addr, "Not in the state",
		fmt.Sprintf("%s is not in the state (%s)%s", addr, someAddresses(st), unquotedKeyHint(addr)))
}

// someAddresses is "it records a, b and c" (the first few addresses), or
// that it records none.
func someAddresses(st *state.State) string {
	have := st.Addresses()
	if len(have) == 0 {
		return "the state records no computes"
	}
	if len(have) > 8 {
		have = append(have[:8], "...")
	}
	return "it records " + strings.Join(have, ", ")
}

// unquotedKeyHint explains an address whose key lost its double quotes on
// the way through the shell (shop.main.reports["eu"] typed without single
// quotes arrives as shop.main.reports[eu]); "" for any other address.
func unquotedKeyHint(addr string) string {
	if !strings.Contains(addr, "[") || strings.Contains(addr, `"`) {
		return ""
	}
	quoted := strings.NewReplacer("[", `["`, "]", `"]`).Replace(addr)
	return fmt.Sprintf(". Did the shell remove the double quotes around the key? Put the whole address in single quotes: '%s'", quoted)
}

func runForceUnlock(ctx context.Context, o stateOptions) error {
	b, err := openStateOf(ctx, o)
	if err != nil {
		return err
	}
	defer closeBackend(b)
	id := o.Args[0]
	switch b := b.(type) {
	case *state.Local:
		err = b.ForceUnlock(id)
	case *state.Postgres:
		err = b.ForceUnlock(ctx, id)
	default:
		err = fmt.Errorf("%s cannot be force-unlocked by neonform", b.Describe())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "Removed the state lock %s of %s. Make sure the run that held it is gone before you apply.\n", id, b.Describe())
	return nil
}
