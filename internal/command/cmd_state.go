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
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// stateOptions are the inputs of the state subcommands and force-unlock.
type stateOptions struct {
	planInputs
	Args []string
	// JSON: state list and show print JSON, for scripts.
	JSON   bool
	Env    environment
	Stdout io.Writer
	Stderr io.Writer
}

func stateCommand() *cli.Command {
	sub := func(name, usage, args, description string, nargs int, run func(context.Context, stateOptions) error, flags ...cli.Flag) *cli.Command {
		extra := ""
		for _, f := range flags {
			switch f.Names()[0] {
			case "json":
				extra = " [-json]"
			case "lock-timeout":
				extra = " [-lock-timeout DURATION]"
			}
		}
		return &cli.Command{
			Name:        name,
			Usage:       usage,
			UsageText:   "neonform state " + name + " " + strings.TrimSpace(args+" [DIR]"+extra+" [-var NAME=VALUE]... [-var-file FILE]..."),
			Description: description,
			Flags:       append(stateFlags(), flags...),
			Action: func(c *cli.Context) error {
				o, err := stateOptionsFrom(c, nargs, args)
				if err != nil {
					return err
				}
				return run(c.Context, o)
			},
		}
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
		Subcommands: []*cli.Command{
			sub("list", "list the addresses in the state and their endpoints", "",
				`Prints one line per compute in the state: its address, endpoint id and type.
With -json, a JSON object whose "computes" list has, for each, its address,
endpoint, project, branch, type and host.

Examples:
   neonform state list
   neonform state list -json | jq -r '.computes[].host'`, 0, runStateList, jsonFlag()),
			sub("show", "show what the state records for one address", "ADDR",
				`Prints the state entry of ADDR: its endpoint, its host, project, branch, type
and what neonform last applied to it. With -json, the same as a JSON object.

Examples:
   neonform state show shop.main.primary
   neonform state show -json shop.main.primary | jq -r .host`, 1, runStateShow, jsonFlag()),
			sub("rm", "stop managing a compute, leaving its endpoint running", "ADDR",
				`Removes ADDR from the state. The endpoint keeps running; neonform forgets it.
If the compute block stays in the configuration, the next plan adopts the
endpoint again when it can (a branch's read_write endpoint, a read replica
of the same name) or creates a new one; remove the block too to let it go.

Example:
   neonform state rm shop.main.reports`, 1, runStateRm, lockTimeoutFlag()),
			sub("mv", "give a compute's state entry a new address", "FROM TO",
				`Moves the state entry at FROM to TO, keeping its endpoint: what a moved block
does, done once by hand. Nothing changes in the service; if TO's compute block
is on another branch, the next plan moves the endpoint there.

Example:
   neonform state mv shop.main.reporting shop.main.reports`, 2, runStateMv, lockTimeoutFlag()),
		},
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
			o, err := stateOptionsFrom(c, 1, "LOCK_ID")
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

func stateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "var", Usage: "set a variable: `NAME=VALUE` (repeatable)"},
		&cli.StringSliceFlag{Name: "var-file", Usage: "read variables from `FILE` (repeatable)"},
	}
}

func stateOptionsFrom(c *cli.Context, nargs int, names string) (stateOptions, error) {
	args := c.Args().Slice()
	if len(args) < nargs || len(args) > nargs+1 {
		usage := strings.TrimSpace(names + " [DIR]")
		return stateOptions{}, fmt.Errorf("neonform %s takes %s (got %d arguments)", c.Command.FullName(), usage, len(args))
	}
	o := stateOptions{
		// Only the neonform block is read: it says where the state is. A
		// configuration mid-edit, or variables without values, do not matter.
		planInputs: planInputs{Dir: ".", Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}, SettingsOnly: true},
		Args:       args[:nargs],
		JSON:       c.Bool("json"),
		Env:        environmentOf(c), Stdout: c.App.Writer, Stderr: c.App.ErrWriter,
	}
	if len(args) > nargs {
		o.Dir = args[nargs]
	}
	remember(c, o.planInputs)
	var err error
	o.LockTimeout, err = lockTimeoutOf(c)
	return o, err
}

// openStateOf opens the state that the configuration in o.Dir names.
func openStateOf(ctx context.Context, o stateOptions) (state.Backend, error) {
	cfg, err := loadConfig(o.planInputs, o.Env, o.Stderr)
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
	st, where, err := readState(ctx, o)
	if err != nil {
		return err
	}
	if o.JSON {
		list := make([]stateEntryJSON, 0, len(st.Computes))
		for _, addr := range st.Addresses() {
			list = append(list, entryJSON(addr, st.Computes[addr]))
		}
		return writeJSON(o.Stdout, struct {
			Computes []stateEntryJSON `json:"computes"`
		}{list})
	}
	if len(st.Computes) == 0 {
		fmt.Fprintf(o.Stderr, "The state (%s) records no computes.\n", where)
		return nil
	}
	tw := tabwriter.NewWriter(o.Stdout, 0, 0, 2, ' ', 0)
	for _, addr := range st.Addresses() {
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
		return notInState(addr, st)
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
	for _, r := range diff.AppliedValues(c).RowsHiding(c.Sensitive) {
		row("    ", r.Name, r.Value)
	}
	return nil
}

func notInState(addr string, st *state.State) error {
	have := st.Addresses()
	hint := "the state records no computes"
	if len(have) > 0 {
		if len(have) > 8 {
			have = append(have[:8], "...")
		}
		hint = "it records " + strings.Join(have, ", ")
	}
	return fmt.Errorf("%s is not in the state (%s)%s", addr, hint, unquotedKeyHint(addr))
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

// editState runs one edit of the state under its lock and writes it.
func editState(ctx context.Context, o stateOptions, op string, edit func(st *state.State) error) (before, after int64, err error) {
	b, err := openStateOf(ctx, o)
	if err != nil {
		return 0, 0, err
	}
	defer closeBackend(b)
	st, unlock, err := readLocked(ctx, b, op, o.LockTimeout, o.Stderr)
	if err != nil {
		return 0, 0, err
	}
	defer unlock()
	before = st.Serial
	if err := edit(st); err != nil {
		return 0, 0, err
	}
	if err := b.Write(ctx, st); err != nil {
		return 0, 0, err
	}
	return before, st.Serial, nil
}

func runStateRm(ctx context.Context, o stateOptions) error {
	addr := o.Args[0]
	var id string
	before, after, err := editState(ctx, o, "state rm", func(st *state.State) error {
		c := st.Computes[addr]
		if c == nil {
			return notInState(addr, st)
		}
		id = c.EndpointID
		delete(st.Computes, addr)
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "Removed %s (%s) from the state (serial %d -> %d). The endpoint keeps running; neonform no longer manages it.\n",
		textsafe.Terminal(addr), textsafe.Terminal(id), before, after)
	return nil
}

func runStateMv(ctx context.Context, o stateOptions) error {
	from, to := o.Args[0], o.Args[1]
	if _, _, _, err := config.ParseAddress(to); err != nil {
		return fmt.Errorf("%v%s", err, unquotedKeyHint(to))
	}
	var id string
	before, after, err := editState(ctx, o, "state mv", func(st *state.State) error {
		c := st.Computes[from]
		if c == nil {
			return notInState(from, st)
		}
		if fp, _, _, _ := config.ParseAddress(from); fp != "" {
			if !config.SameProjectBlock(from, to) {
				a := configArgsOf(o.planInputs)
				return fmt.Errorf("cannot move %s to another project (%s): an endpoint belongs to its project. "+
					"To manage it from another project block, keep the project label, or remove it from the state (`%s`) and import it there (`%s`)",
					from, to, a.command("state", "rm", from), a.command("import", to, c.EndpointID))
			}
		}
		id = c.EndpointID
		return st.Move(from, to)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "Moved %s to %s (%s; serial %d -> %d). Nothing changed in the service; run `%s` to see what the new address means.\n",
		textsafe.Terminal(from), textsafe.Terminal(to), textsafe.Terminal(id), before, after, configArgsOf(o.planInputs).command("plan"))
	return nil
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
