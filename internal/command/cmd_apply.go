package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

type applyOptions struct {
	planInputs
	// PlanFile, when set, is the saved plan to apply; Dir is then only where
	// the configuration says the state and the service are.
	PlanFile    string
	AutoApprove bool
	Env         environment
	Stdin       io.Reader
	Stdout      io.Writer
	Stderr      io.Writer
	// Interactive: standard input is a terminal, and -input=false was not
	// given, so apply can ask; NoAsk says why it cannot otherwise.
	Interactive bool
	NoAsk       string
	// Live: standard output is a terminal, for the live status line.
	Live  bool
	Color bool
	// JSON: -json, events on standard output (apply_json.go); view is
	// where the run shows itself, once runApply chose it.
	JSON bool
	view *views.Apply
}

func applyCommand() *cli.Command {
	return &cli.Command{
		Name:  "apply",
		Usage: "carry out the changes, in order, waiting for each and recording it in the state",
		UsageText: `neonform apply [DIR] [-auto-approve] [-input=false] [-json] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-parallelism N] [-refresh-branches] [-target ADDR]... [-replace ADDR]... [-destroy] [-var NAME=VALUE]... [-var-file FILE]...
neonform apply PLANFILE [DIR] [-json] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-parallelism N]`,
		Description: `With a directory (default: the current one), apply makes a plan as "neonform
plan" does, shows it, asks for "yes", and carries it out. Without a terminal to
ask on, or with -input=false, it needs -auto-approve, or a saved plan.

-target, -replace and -destroy make the plan as they do for "neonform plan";
"neonform apply -destroy" is "neonform destroy".

With a plan file saved by "neonform plan -out FILE", it carries out exactly that
plan, without asking: the plan is what was reviewed. DIR is the configuration
the plan was made from (default: the current directory); it says where the
state is. A plan is refused, and nothing is changed, when the state or the
live endpoints changed since it was made; the error says what changed.

How it runs: the steps of one project run one at a time, each waiting until
the service's operations for it finish; projects run in parallel, at most
-parallelism at once. The state is written after every step. A step that
fails stops the rest of its project; other projects go on. The end says what
was done, what failed and why, and what was not attempted; "neonform plan"
then shows exactly what remains.

-json prints one JSON object a line on standard output for every event (the
plan's summary, each step started, done or failed, each state write, the end
with its counts), for a deployment tool; the rest goes to standard error. It
needs -auto-approve or a plan file. -lock-timeout 2m waits for a state lock
another run holds instead of failing at once; -lock=false runs without the
lock (only when nothing else can change the state meanwhile).

Interrupt (Ctrl-C, SIGTERM or SIGHUP): no new step starts, the steps in flight
finish and are recorded, and apply exits 1 saying what is left. A second
interrupt exits at once. At the question, an interrupt cancels at once.

Examples:
   neonform apply                                  # plan, show, ask, apply
   neonform apply -auto-approve examples/quickstart
   neonform plan -out plan.json infra/ && neonform apply plan.json infra/
   neonform apply -json plan.json infra/ | jq -r 'select(.type == "step_failed") | .error'

Exit status: 0 every step done (or nothing to do), 1 otherwise.`,
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
	args := c.Args().Slice()
	switch len(args) {
	case 0:
		return o, nil
	case 1, 2:
	default:
		return o, fmt.Errorf("too many arguments: apply takes a directory, or a plan file and then a directory (got %s)", strings.Join(args, " "))
	}
	info, err := os.Stat(args[0])
	switch {
	case err != nil:
		return o, fmt.Errorf("%s is neither a configuration directory nor a plan file: %w", args[0], errors.Unwrap(err))
	case info.IsDir() && len(args) == 2:
		hint := ""
		if fi, err := os.Stat(args[1]); err == nil && !fi.IsDir() {
			in := o.planInputs
			in.Dir = args[0]
			hint = fmt.Sprintf("; to apply the saved plan %s, pass it first: `%s`", args[1], configArgsOf(in).applySaved(args[1]))
		}
		return o, fmt.Errorf("apply takes one directory (got %s and %s)%s", args[0], args[1], hint)
	case info.IsDir():
		o.Dir = args[0]
		return o, nil
	case strings.HasSuffix(args[0], ".hcl"):
		// Not a plan: read as one, it would be refused with advice to make a
		// plan at this path, which would overwrite the configuration.
		in := o.planInputs
		in.Dir = filepath.Dir(args[0])
		var flags []string
		if o.AutoApprove {
			flags = append(flags, "-auto-approve")
		}
		return o, fmt.Errorf("%s is a configuration file, not a plan: apply reads every *.hcl file of a directory as one configuration. To apply it: `%s`",
			args[0], configArgsOf(in).command("apply", flags...))
	}
	o.PlanFile = args[0]
	if o.RefreshBranches {
		return o, fmt.Errorf("-refresh-branches is for planning: %s was planned already, and apply carries it out as it is. Plan again with -refresh-branches and apply that plan", args[0])
	}
	if s := o.Scope; len(s.Targets) > 0 || len(s.Replace) > 0 || s.Destroy {
		return o, fmt.Errorf("-target, -replace and -destroy are for planning: %s was planned already (with whatever it was planned with, which it records), and apply carries it out as it is", args[0])
	}
	if len(args) == 2 {
		o.Dir = args[1]
	}
	return o, nil
}

func runApply(ctx context.Context, o applyOptions) error {
	ctx, stop := watchInterrupts(ctx, o.Stderr)
	defer stop()
	// A closed standard output (apply ... | head) must not stop an apply
	// halfway: what is left to print goes to standard error (interrupt.go).
	o.Stdout = &fallbackWriter{w: o.Stdout, fallback: o.Stderr}
	var err error
	if o.view, err = applyView(o); err != nil {
		return err
	}
	if o.PlanFile != "" {
		err = applyPlanFile(ctx, o)
	} else {
		err = applyDir(ctx, o)
	}
	err = afterInterrupt(ctx, err)
	endEvents(o.view.JSON, err)
	return err
}

// applyDir plans, shows the plan, asks, and applies.
func applyDir(ctx context.Context, o applyOptions) error {
	if !o.AutoApprove && !o.Interactive {
		a := configArgsOf(o.planInputs)
		command := "apply"
		if o.Scope.Destroy {
			command = "destroy"
		}
		return fmt.Errorf("%s cannot ask for confirmation: %s. Nothing was changed.\n"+
			"Add -auto-approve to apply without asking, or apply a plan that was reviewed:\n  %s\n  %s",
			command, o.NoAsk, a.command("plan", append(scopeArgs(o.Scope), "-out", "plan.json")...), a.applySaved("plan.json"))
	}
	in := o.planInputs
	in.Lock = true
	// Applied without a pause, under the lock the plan was made under, the
	// plan's own read of the endpoints is current: apply checks the plan
	// against it rather than reading again. After a question, time passed.
	in.KeepRead = o.AutoApprove
	p, err := makePlan(ctx, in, o.Env, o.Stderr)
	if err != nil {
		return err
	}
	defer p.Close(o.Stderr)
	if err := renderPlan(o.view.People, p, "human", o.Color, false, "", configArgsOf(o.planInputs)); err != nil {
		return err
	}
	if !p.plan.HasSteps() {
		noChanges(o.view.JSON, p.plan)
		return nil
	}
	// Forgetting gone computes alone is no change to review (diff.Step.Gone):
	// carried out without asking, so the next plan is empty.
	if o.Scope.Destroy && p.plan.HasChanges() && !o.AutoApprove && !askToDestroy(ctx, o.Stdin, o.view.People) {
		return &exitError{code: 1, msg: "Destroy cancelled: nothing was changed."}
	}
	if !o.Scope.Destroy && p.plan.HasChanges() && !o.AutoApprove && !askToApply(ctx, o.Stdin, o.view.People) {
		return &exitError{code: 1, msg: "Apply cancelled: nothing was changed."}
	}
	startApplying(ctx)
	fmt.Fprintln(o.view.People)
	return carryOut(ctx, o, p.plan, p.conn.client, p.backend, true, p.read, nil)
}

// applyPlanFile applies a saved plan, exactly as it is, or refuses it.
func applyPlanFile(ctx context.Context, o applyOptions) error {
	plan, err := planfile.ReadFileContext(ctx, o.PlanFile)
	if err != nil {
		return err
	}
	in := o.planInputs
	in.SettingsOnly = true
	// Run from elsewhere, the advice names the directory the plan was made from.
	madeIn := plannedFrom(o.PlanFile, plan.ConfigDir)
	if madeIn != "" && sameDir(madeIn, o.Dir) {
		madeIn = ""
	}
	in.KnownDir = madeIn
	madeWith := ""
	if madeIn != "" {
		at := o.planInputs
		at.Dir = madeIn
		madeWith = fmt.Sprintf("The plan was made from the configuration in %s: `%s`", displayPath(madeIn), configArgsOf(at).applySaved(o.PlanFile))
	}
	cfg, err := loadConfig(ctx, in, o.Env, o.Stderr)
	if err != nil {
		msg := fmt.Sprintf("Nothing was changed: apply %s reads the neonform block of the configuration in %s to find the service and the state, and could not.",
			o.PlanFile, displayPath(o.Dir))
		if madeWith != "" {
			msg += " " + madeWith
		}
		return &exitError{code: 1, msg: msg}
	}
	policy, readVars := policyOf(in, o.Env)
	if readVars == nil {
		readVars = cfg.Settings.Variables
	}
	if err := refuseVarsForSavedPlan(o.PlanFile, o.Vars, readVars, configArgsOf(o.planInputs)); err != nil {
		return err
	}
	if madeWith != "" {
		// Another configuration's state and service: most likely a mistake,
		// which apply's checks will refuse; said first, with the way out.
		fmt.Fprintln(o.view.People, textsafe.Terminal(fmt.Sprintf("Note: apply reads the configuration in %s. %s", displayPath(o.Dir), madeWith)))
	}
	backend, err := openState(ctx, cfg, o.Env)
	if err != nil {
		return err
	}
	defer closeBackend(backend)
	conn, err := connect(cfg, o.Env, o.Stderr, o.WaitTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if conn.apiURL != plan.APIURL {
		return fmt.Errorf("%s was made against %s, but the configuration in %s (with NEON_API_URL, if set) talks to %s. Nothing was changed; "+
			"apply the plan with the configuration and environment it was made with, or make a new plan",
			o.PlanFile, api.ShownURL(plan.APIURL), displayPath(o.Dir), api.ShownURL(conn.apiURL))
	}
	if note := configChangedNote(plan, cfg, o.Dir); note != "" {
		fmt.Fprintln(o.view.People, textsafe.Terminal(note)) // it names the files: shown escaped (internal/textsafe)
	}
	// A plan without steps goes to apply all the same, which checks it
	// before it says there is nothing to do: a file whose steps were taken
	// out has none, but its changes and the state make some.
	if plan.HasSteps() {
		startApplying(ctx)
		fmt.Fprintf(o.view.People, "Plan %s, made %s: %s\n\n", filepath.ToSlash(o.PlanFile), plan.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), planSummary(plan))
	}
	return carryOut(ctx, o, plan, conn.client, backend, false, nil, policy)
}

// policyOf reads the lifecycle blocks and sensitive values of the
// configuration a saved plan is applied with, as far as the values given
// allow (a lifecycle that uses a variable without one counts as the
// strictest): apply holds the plan to them (diff.HoldTo). Its diagnostics
// are not printed: only where they fall matters, and the settings were read
// and reported already.
// The variables it returns are those applying the plan reads (the neonform
// block's, the lifecycle blocks' and for_each's: config.Settings.Variables);
// nil when the configuration could not be read.
func policyOf(in planInputs, env environment) (*diff.Policy, []string) {
	cfg, diags := config.Load(in.Dir, config.Options{Vars: in.Vars, VarFiles: in.VarFiles, Environ: env.list, SettingsOnly: true, Projects: true, KnownDir: in.KnownDir})
	var vars []string
	if cfg != nil {
		vars = cfg.Settings.Variables
	}
	return diff.PolicyOf(cfg, diags), vars
}

// configChangedNote says which configuration files changed since the plan
// was made, if any: apply carries out the plan, not the files, and whoever
// edited them should know. "" when none did.
func configChangedNote(plan *diff.Plan, cfg *config.Config, dir string) string {
	sources := sourcesOf(cfg)
	if len(plan.ConfigFiles) == 0 {
		// A plan from before the files were recorded: only the digest can tell.
		if diff.ConfigDigest(sources) == plan.ConfigDigest {
			return ""
		}
		return fmt.Sprintf("Note: the configuration in %s changed since the plan was made; apply carries out the saved plan, not the changed files.", displayPath(dir))
	}
	c := diff.CompareFiles(plan.ConfigFiles, diff.FileDigests(sources))
	if c.None() {
		return ""
	}
	var what []string
	add := func(names []string, verb string) {
		if len(names) > 0 {
			what = append(what, strings.Join(names, ", ")+" "+verb)
		}
	}
	add(c.Changed, "changed")
	add(c.Added, "added")
	add(c.Removed, "removed")
	return fmt.Sprintf("Note: the configuration in %s changed since the plan was made (%s); apply carries out the saved plan, not the changed files.",
		displayPath(dir), strings.Join(what, "; "))
}

// carryOut runs the plan and prints how it ended. locked: the caller holds
// the state lock already. planRead: the endpoints the plan was made from a
// moment ago (apply.Options.PlanRead), or nil to read them again. policy:
// the configuration's guards a saved plan is held to (apply.Options.Policy);
// nil for a plan made from it in this run.
func carryOut(ctx context.Context, o applyOptions, plan *diff.Plan, client *api.Client, backend state.Backend, locked bool, planRead map[string][]api.Endpoint, policy *diff.Policy) error {
	if events := o.view.JSON; events != nil {
		// A long wait is said on standard error, as before the apply, and
		// is an event too.
		note := waitNote(o.Stderr)
		client.OnWait(func(w api.Wait) {
			note(w)
			events.ServiceWait(w)
		})
	}
	rep, err := apply.Apply(ctx, plan, apply.Options{
		Client:      client,
		State:       backend,
		Locked:      locked,
		Parallelism: o.Parallelism,
		Hooks:       o.view.Hooks(),
		LockTimeout: o.LockTimeout,
		LockWaiting: lockWaitNote(o.Stderr, o.LockTimeout),
		PlanRead:    planRead,
		Policy:      policy,
	})
	if rep == nil {
		return err // refused before the first step: nothing was changed
	}
	if err == nil && !plan.HasSteps() {
		fmt.Fprintf(o.view.People, "%s has no changes: nothing to do.\n", filepath.ToSlash(o.PlanFile))
		return nil
	}
	summary := configArgsOf(o.planInputs).complete(views.Summary(rep))
	if err != nil {
		fmt.Fprintf(o.Stderr, "\n%s\n", summary)
		return &exitError{code: 1}
	}
	fmt.Fprintf(o.view.People, "\n%s\n", summary)
	return nil
}

// planSummary is diff.ShortSummary, and whether the plan is partial.
func planSummary(p *diff.Plan) string {
	out := view.ShortSummary(p)
	if len(p.Targets) > 0 {
		out += " It is partial (-target " + strings.Join(p.Targets, ", -target ") + "): other changes may be waiting."
	}
	return out
}

func displayPath(dir string) string {
	if dir == "" {
		return "."
	}
	return filepath.ToSlash(dir)
}
