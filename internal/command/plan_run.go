package command

import (
	"cmp"
	"context"
	"io"
	"path/filepath"

	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/abandon"
	"github.com/neonform/neonform/internal/english"
)

// planOptions are what plan was asked to do (cmd_plan.go reads them from
// its flags and argument).
type planOptions struct {
	planInputs
	Out              string
	Format           string
	DetailedExitCode bool
	Verbose          bool
	Env              environment
	Stdout, Stderr   io.Writer
	Color            bool
}

// runPlan makes the plan, saves it when asked, and prints it.
func runPlan(ctx context.Context, o planOptions) error {
	if err := checkFormat(o.Format); err != nil {
		return err
	}
	if o.Out != "" {
		// Before any call: a plan that cannot be saved is not worth making.
		if err := planfile.CheckWritable(o.Out); err != nil {
			return err
		}
	}
	p, err := makePlan(ctx, o.planInputs, o.Env, o.Stderr)
	if err != nil {
		return planInterrupted(ctx, err)
	}
	defer p.Close(o.Stderr)
	if ctx.Err() != nil { // a signal as the plan was made: nothing is saved
		return planInterrupted(ctx, ctx.Err())
	}
	if o.Out != "" {
		p.plan.ConfigDir = configDirFor(o.Out, o.Dir)
		// An interrupt while it is written leaves no plan file.
		if err := planfile.WriteFileContext(ctx, o.Out, p.plan); err != nil {
			return planInterrupted(ctx, err)
		}
	}
	// An interrupt while the plan is shown (250,000 lines of it, seconds of
	// CPU) stops the showing at its next write, and the run does not wait
	// for the view: it is given up, as a parse is, and stops formatting
	// soon after by itself (diff/view/looks.go), for a caller that lives on.
	shown, err := abandon.Call(ctx, func() error {
		return renderPlan(ctx, abandon.Writer(ctx, o.Stdout), p, o.Format, o.Color, o.Verbose, o.Out, configArgsOf(o.planInputs))
	})
	if err = cmp.Or(err, shown); err != nil {
		return renderInterrupted(ctx, err, o.Out)
	}
	if o.DetailedExitCode && p.plan.HasChanges() {
		return &exitError{code: exitChanges}
	}
	return nil
}

// renderPlan prints the plan, stopping soon after ctx is done; savedTo is
// where it was saved, if it was, and args the configuration it was made
// from, which the commands it suggests (how to apply the saved plan, the
// warnings' advice) must point at.
func renderPlan(ctx context.Context, w io.Writer, p *planned, format string, color, verbose bool, savedTo string, args configArgs) error {
	switch format {
	case "json":
		// Streamed when it hides no sensitive value: it stops at the first
		// write that fails, as abandon.Writer's do once ctx is done.
		return planfile.RenderJSON(w, p.plan)
	case "markdown":
		return view.MarkdownContext(ctx, w, p.plan, markdownLimit)
	}
	applyWith := ""
	if savedTo != "" {
		savedTo = filepath.ToSlash(savedTo)
		applyWith = args.forSavedPlan(p.settingsVars).command("apply", savedTo)
	}
	return view.HumanContext(ctx, w, p.plan, view.HumanOptions{
		Color: color, Verbose: verbose, SavedTo: savedTo, ApplyWith: applyWith,
		Stats:   english.Plural(p.reads, "API read", "API reads"),
		Context: args.context(),
	})
}
