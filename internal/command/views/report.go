package views

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
)

// The report at the end of an apply, for people: what was done, what failed
// and why, what was not attempted, and what to do next. apply.Report holds
// the facts.

// Summary is one paragraph for the end of an apply, about r:
//
//	Apply complete: 1 created, 2 updated (1 restarted), 1 deleted in 12.4s.
//
// or, when a step failed or the apply was interrupted, what was done, what
// failed and why, what was not attempted, and what to do next, its
// commands written for the run's context x.
func Summary(r *apply.Report, x suggest.Context) string {
	var b strings.Builder
	elapsed := formatElapsed(r.Elapsed)
	switch {
	case len(r.Failed) == 0 && len(r.NotAttempted) == 0 && !r.Interrupted:
		if len(r.Done) == 0 {
			fmt.Fprintf(&b, "Apply complete: nothing to do (%s).", elapsed)
			return b.String()
		}
		fmt.Fprintf(&b, "Apply complete: %s in %s.", phrase(r.Counts), elapsed)
		writeStillRunning(r, &b)
		return b.String()
	case r.Interrupted:
		fmt.Fprintf(&b, "Apply interrupted after %s: %s.", elapsed, progressPhrase(r))
	default:
		fmt.Fprintf(&b, "Apply failed after %s: %s.", elapsed, progressPhrase(r))
	}
	if len(r.Done) > 0 {
		fmt.Fprintf(&b, " Done: %s.", phrase(r.Counts))
	}
	if len(r.Failed) > 0 {
		b.WriteString("\nFailed:")
	}
	for _, f := range r.Failed {
		fmt.Fprintf(&b, "\n  %s (step %d", textsafe.Terminal(f.Step.Address), f.Step.ID)
		if call := textsafe.Terminal(describeStep(&f.Step)); !strings.HasPrefix(f.Err.Error(), call) {
			b.WriteString(", " + call) // the service's errors name the call themselves
		}
		fmt.Fprintf(&b, "): %s", textsafe.Terminal(x.Complete(f.Err.Error(), suggest.Of(f.Err))))
		if f.Recorded {
			b.WriteString(" (the endpoint exists and is recorded in the state)")
		}
	}
	if len(r.NotAttempted) > 0 {
		b.WriteString("\nNot attempted:")
	}
	for _, n := range r.NotAttempted {
		fmt.Fprintf(&b, "\n  %s (step %d, %s)", textsafe.Terminal(n.Step.Address), n.Step.ID, textsafe.Terminal(describeStep(&n.Step)))
	}
	writeStillRunning(r, &b)
	if r.LockLost != nil {
		fmt.Fprintf(&b, "\nStopped: %s. Nothing more was sent to the service after that was found.", textsafe.Terminal(fmt.Sprint(errors.Unwrap(r.LockLost))))
	}
	fmt.Fprintf(&b, "\nThe state records every step that was done. Run `%s` to see exactly what remains", x.Text(suggest.Run("plan")))
	if len(r.Failed) > 0 {
		b.WriteString(", fix the cause of the failure above, and apply the new plan.")
	} else {
		b.WriteString(", and apply the new plan.")
	}
	return b.String()
}

// progressPhrase is "2 steps done, 1 failed, 3 not attempted".
func progressPhrase(r *apply.Report) string {
	parts := []string{english.Plural(len(r.Done), "step done", "steps done")}
	if len(r.Failed) > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", len(r.Failed)))
	}
	if len(r.NotAttempted) > 0 {
		parts = append(parts, fmt.Sprintf("%d not attempted", len(r.NotAttempted)))
	}
	return strings.Join(parts, ", ")
}

func writeStillRunning(r *apply.Report, b *strings.Builder) {
	var ids []string
	for _, d := range r.Done {
		if d.StillRunning {
			ids = append(ids, textsafe.Terminal(d.EndpointID))
		}
	}
	if len(ids) > 0 {
		fmt.Fprintf(b, "\nThe operations of %s were still running when the apply stopped waiting; the service finishes them on its own.",
			strings.Join(ids, ", "))
	}
}

// phrase is "1 created, 2 updated (1 restarted), 1 deleted".
func phrase(c apply.Counts) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(c.Created, "created")
	if c.Updated > 0 {
		s := fmt.Sprintf("%d updated", c.Updated)
		var disrupted []string
		if c.Restarted > 0 {
			disrupted = append(disrupted, fmt.Sprintf("%d restarted", c.Restarted))
		}
		if c.Suspended > 0 {
			disrupted = append(disrupted, fmt.Sprintf("%d suspended", c.Suspended))
		}
		if len(disrupted) > 0 {
			s += " (" + strings.Join(disrupted, ", ") + ")"
		}
		parts = append(parts, s)
	}
	add(c.Replaced, "replaced")
	add(c.Deleted, "deleted")
	if c.StateOnly > 0 {
		parts = append(parts, view.StateOnlyWords(c.StateOnly))
	}
	if c.ForgotGone > 0 {
		parts = append(parts, view.GoneWords(c.ForgotGone)+" forgotten")
	}
	if c.Defaults > 0 {
		parts = append(parts, view.DefaultsWords(c.Defaults)+" changed")
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

// formatElapsed is "12.4s", "850ms" or "2m3s": precise enough to compare runs.
func formatElapsed(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// describeStep names a step's call as the service sees it, or says it changes
// only the state.
func describeStep(s *diff.Step) string {
	if s.Kind == diff.StepState {
		return "state only"
	}
	return s.Method + " " + s.Path
}
