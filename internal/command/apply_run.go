package command

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/state"
)

// applyOptions are what apply (and destroy) were asked to do: cmd_apply.go
// reads them from the flags and arguments, and runApply does it.
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

// runApply applies a saved plan, or plans, shows, asks and applies, and
// shows how it ended: as a person reads it, and as events with -json.
func runApply(ctx context.Context, o applyOptions) error {
	ctx, stop := watchInterrupts(ctx, o.Stderr)
	defer stop()
	// A closed standard output (apply ... | head) must not stop an apply
	// halfway: what is left to print goes to standard error (interrupt.go).
	o.Stdout = &fallbackWriter{w: o.Stdout, fallback: o.Stderr}
	noQuestionWithJSON(&o)
	o.view = applyView(o)
	var err error
	if o.PlanFile != "" {
		err = applyPlanFile(ctx, o)
	} else {
		err = applyDir(ctx, o)
	}
	err = afterInterrupt(ctx, err)
	endEvents(o.view.JSON, err)
	return err
}

// applyDir plans, shows the plan, asks, and applies. Without a way to ask
// (no terminal, -input=false), it carries out a plan that needs no review
// (diff.Plan.HasChanges) and refuses any other.
func applyDir(ctx context.Context, o applyOptions) error {
	in := o.planInputs
	in.Lock = true
	// Applied without a pause, under the lock the plan was made under, the
	// plan's own read of the endpoints is current: apply checks the plan
	// against it rather than reading again. After a question, time passed.
	in.KeepRead = o.AutoApprove || !o.Interactive
	p, err := makePlan(ctx, in, o.Env, o.Stderr)
	if err != nil {
		return err
	}
	defer p.Close(o.Stderr)
	if err := renderPlan(ctx, o.view.People, p, "human", o.Color, false, "", configArgsOf(o.planInputs)); err != nil {
		return err
	}
	if !p.plan.HasSteps() {
		noChanges(o.view.JSON, p.plan)
		return nil
	}
	// Forgetting gone computes and adopting endpoints as they are is no
	// change to review (diff/review.go): carried out without asking, so the
	// next plan is empty.
	if p.plan.HasChanges() && !o.AutoApprove {
		if err := approve(ctx, o); err != nil {
			return err
		}
	}
	startApplying(ctx)
	o.view.Starting()
	return carryOut(ctx, o, p.plan, p.conn.client, p.backend, p.unlock != nil, p.read, nil)
}

// approve asks whether to apply (or destroy) a plan with changes to
// review, or says why it cannot ask; an error when the answer is not yes.
func approve(ctx context.Context, o applyOptions) error {
	command := "apply"
	if o.Scope.Destroy {
		command = "destroy"
	}
	if !o.Interactive {
		a := configArgsOf(o.planInputs)
		var applyArgs []string
		if o.JSON {
			applyArgs = append(applyArgs, "-json")
		}
		return fmt.Errorf("%s cannot ask for confirmation: %s, and the plan has changes to review. Nothing was changed.\n"+
			"Add -auto-approve to apply without asking, or apply a plan that was reviewed:\n  %s\n  %s",
			command, o.NoAsk, a.command("plan", append(scopeArgs(o.Scope), "-out", "plan.json")...), a.applySaved("plan.json", applyArgs...))
	}
	if o.Scope.Destroy && !askToDestroy(ctx, o.Stdin, o.view.People) {
		return &exitError{code: 1, msg: "Destroy cancelled: nothing was changed."}
	}
	if !o.Scope.Destroy && !askToApply(ctx, o.Stdin, o.view.People) {
		return &exitError{code: 1, msg: "Apply cancelled: nothing was changed."}
	}
	return nil
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
		o.view.Note(fmt.Sprintf("Note: apply reads the configuration in %s. %s", displayPath(o.Dir), madeWith))
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
		o.view.Note(note)
	}
	// A plan without steps goes to apply all the same, which checks it
	// before it says there is nothing to do: a file whose steps were taken
	// out has none, but its changes and the state make some.
	if plan.HasSteps() {
		startApplying(ctx)
		o.view.SavedPlan(o.PlanFile, plan)
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
		return views.Refusal(err) // refused before the first step: nothing was changed
	}
	if err == nil && !plan.HasSteps() {
		o.view.NothingToDo(o.PlanFile)
		return nil
	}
	summary := views.Summary(rep, configArgsOf(o.planInputs).context())
	o.view.Finished(summary, err != nil)
	if err != nil {
		return &exitError{code: 1}
	}
	return nil
}

func displayPath(dir string) string {
	if dir == "" {
		return "."
	}
	return filepath.ToSlash(dir)
}
