package views

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/suggest"
)

func done(steps ...diff.Step) []apply.StepResult {
	out := make([]apply.StepResult, len(steps))
	for i, s := range steps {
		out[i] = apply.StepResult{Step: s, Recorded: true}
	}
	return out
}

func TestSummaryCountsAsPeopleCount(t *testing.T) {
	rep := &apply.Report{Done: done(diff.Step{ID: 1}, diff.Step{ID: 2}), Elapsed: 12400 * time.Millisecond,
		Counts: apply.Counts{Created: 1, Updated: 3, Restarted: 1, Suspended: 1, Replaced: 1, Deleted: 1, StateOnly: 1}}
	if got, want := Summary(rep, suggest.Context{}), "Apply complete: 1 created, 3 updated (1 restarted, 1 suspended), 1 replaced, 1 deleted, 1 change to the state alone in 12.4s."; got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
}

func TestSummaryOfAnInterruptedApply(t *testing.T) {
	rep := &apply.Report{
		Done:   done(diff.Step{ID: 1}, diff.Step{ID: 2}, diff.Step{ID: 3}, diff.Step{ID: 4}, diff.Step{ID: 5}),
		Failed: []apply.StepResult{{Step: diff.Step{ID: 6, Address: "s.m.app", Kind: diff.StepDelete, Method: "DELETE", Path: "/x"}, Err: errors.New("DELETE /x: 500 Internal Server Error")}},
		NotAttempted: []apply.StepResult{
			{Step: diff.Step{ID: 7, Address: "s.m.old", Kind: diff.StepDelete, Method: "DELETE", Path: "/y"}, Err: errors.New("not attempted")},
			{Step: diff.Step{ID: 8, Address: "s.m.renamed", Kind: diff.StepState}, Err: errors.New("not attempted")},
		},
		Counts: apply.Counts{Created: 2, Updated: 3}, Interrupted: true, Elapsed: 12400 * time.Millisecond,
	}
	s := Summary(rep, suggest.Context{})
	for _, want := range []string{
		"Apply interrupted after 12.4s: 5 steps done, 1 failed, 2 not attempted. Done: 2 created, 3 updated.",
		"Failed:\n  s.m.app (step 6): DELETE /x: 500 Internal Server Error",
		"Not attempted:\n  s.m.old (step 7, DELETE /y)\n  s.m.renamed (step 8, state only)",
		"Run `neonform plan` to see exactly what remains, fix the cause of the failure above",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

func TestSummaryOfALostLock(t *testing.T) {
	rep := &apply.Report{Done: done(diff.Step{ID: 1}), Counts: apply.Counts{Created: 1},
		NotAttempted: []apply.StepResult{{Step: diff.Step{ID: 2, Address: "s.m.b", Kind: diff.StepCreate, Method: "POST", Path: "/z"}, Err: errors.New("not attempted")}},
		LockLost:     &apply.LockLostError{Err: errors.New("this run's lock was removed while it ran (force-unlock?)")}}
	s := Summary(rep, suggest.Context{})
	if !strings.Contains(s, "\nStopped: this run's lock was removed while it ran (force-unlock?). Nothing more was sent to the service after that was found.") {
		t.Errorf("summary:\n%s", s)
	}
}

func TestNothingToDo(t *testing.T) {
	if got := Summary(&apply.Report{Elapsed: 12400 * time.Millisecond}, suggest.Context{}); got != "Apply complete: nothing to do (12.4s)." {
		t.Errorf("summary %q", got)
	}
}
