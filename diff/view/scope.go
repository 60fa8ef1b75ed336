package view

import (
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
)

// Words of the views for a plan with a scope: a partial plan says so at its
// top and its end, as Terraform's warnings do, so that nobody takes it for
// everything the configuration asks; a destroy plan says what it deletes.

// partialTop says, before the changes, that a plan is partial and why.
func partialTop(p *diff.Plan) string {
	if p.Destroy {
		return fmt.Sprintf("This destroy is partial (%s): only the targeted computes were read and are deleted; the others the state manages stay as they are.", targetFlags(p))
	}
	return fmt.Sprintf("This plan is partial (%s): only the targeted computes were read and planned. "+
		"Other changes the configuration asks for may be waiting, and are not shown.", targetFlags(p))
}

// targetFlags is the plan's targets as the flags that ask for them.
func targetFlags(p *diff.Plan) string {
	return "-target " + strings.Join(p.Targets, " -target ")
}

// partialEnd says, after the summary, how to see the rest, with the plan
// command written for the run's context x.
func partialEnd(x suggest.Context) string {
	return "This plan is partial: other changes may be waiting. `" + x.Text(suggest.Run("plan")) + "` without -target shows every change."
}

// headerLine is the first line of the terminal view: "neonform plan: 2
// projects, 6 computes", or for a destroy what it deletes.
func headerLine(p *diff.Plan) string {
	if p.Destroy {
		return fmt.Sprintf("neonform plan (destroy): %s, %s to delete", english.Plural(len(p.Projects), "project", "projects"), english.Plural(p.Summary.Delete, "compute", "computes"))
	}
	return fmt.Sprintf("neonform plan: %s, %s", english.Plural(len(p.Projects), "project", "projects"), english.Plural(configured(p), "compute", "computes"))
}

// noChangesLine is the terminal view of a plan without changes; stats
// ("1 API read") may be empty; x is the run's context (partialEnd).
func noChangesLine(p *diff.Plan, stats string, x suggest.Context) string {
	projects := english.Plural(len(p.Projects), "project", "projects")
	counts := english.Plural(configured(p), "compute", "computes") + " in " + projects
	if stats != "" {
		counts += ", " + stats
		projects += ", " + stats
	}
	switch {
	case p.Destroy && len(p.Targets) > 0:
		return fmt.Sprintf("Nothing to destroy: the state manages no computes under %s (%s).", targetFlags(p), projects)
	case p.Destroy:
		return fmt.Sprintf("Nothing to destroy: the state manages no computes (%s).", projects)
	case len(p.Targets) > 0:
		return fmt.Sprintf("No changes to the targeted computes: they match the configuration (%s). %s", counts, partialEnd(x))
	}
	return fmt.Sprintf("No changes: the live computes match the configuration (%s).", counts)
}

// markdownTitle is the start of a comment's heading.
func markdownTitle(p *diff.Plan) string {
	switch {
	case p.Destroy:
		return "neonform plan (destroy)"
	case len(p.Targets) > 0:
		return "neonform plan (partial, -target)"
	}
	return "neonform plan"
}

// markdownNoChanges is a comment on a plan without changes.
func markdownNoChanges(p *diff.Plan) string {
	switch {
	case p.Destroy:
		return "### neonform plan (destroy): nothing to destroy\n\nThe state manages no computes.\n"
	case len(p.Targets) > 0:
		return "### neonform plan (partial, -target): no changes\n\nThe targeted computes match the configuration. " + textsafe.Markdown(partialTop(p)) + "\n"
	}
	return "### neonform plan: no changes\n\nThe live computes match the configuration.\n"
}

// askedWords starts the "what changes" cell of a replacement -replace asked for.
func askedWords(p *diff.Plan, c *diff.Change) string {
	if c.Action != diff.Replace || !slices.Contains(p.Replace, c.Address) {
		return ""
	}
	if len(c.Attributes) == 0 {
		return "asked with -replace"
	}
	return "asked with -replace; "
}

// leftAloneWords heads the list of unmanaged endpoints.
func leftAloneWords(p *diff.Plan) string {
	return "Left alone (" + unmanagedWords(p) + ")"
}

// unmanagedWords says why an endpoint is left alone: a destroy leaves what
// neonform does not manage, whatever the configuration says.
func unmanagedWords(p *diff.Plan) string {
	if p.Destroy {
		return "not managed by neonform"
	}
	return "not in the configuration"
}
