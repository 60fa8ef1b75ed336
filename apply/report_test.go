package apply

import (
	"errors"
	"testing"
	"time"

	"github.com/neonform/neonform/diff"
)

// countPlan has every kind of change, as the planner makes them.
func countPlan() *diff.Plan {
	return &diff.Plan{
		Changes: []diff.Change{
			{Address: "s.m.new", Action: diff.Create},
			{Address: "s.m.big", Action: diff.Update, Disruption: diff.Restart, Active: true},
			{Address: "s.m.idle", Action: diff.Update, Disruption: diff.Restart, Active: false},
			{Address: "s.m.moved", Action: diff.Update, Disruption: diff.Suspend, Active: true},
			{Address: "s.m.app", Action: diff.Replace},
			{Address: "s.m.old", Action: diff.Delete},
		},
		Steps: []diff.Step{
			{ID: 1, Address: "s.m.new", Kind: diff.StepCreate},
			{ID: 2, Address: "s.m.big", Kind: diff.StepUpdate},
			{ID: 3, Address: "s.m.idle", Kind: diff.StepUpdate},
			{ID: 4, Address: "s.m.moved", Kind: diff.StepUpdate},
			{ID: 5, Address: "s.m.app", Kind: diff.StepCreate},
			{ID: 6, Address: "s.m.app", Kind: diff.StepDelete, Method: "DELETE", Path: "/x"},
			{ID: 7, Address: "s.m.old", Kind: diff.StepDelete, Method: "DELETE", Path: "/y"},
			{ID: 8, Address: "s.m.renamed", Kind: diff.StepState, Note: "rename"},
		},
	}
}

func reportOf(p *diff.Plan, failed map[int]error, skipped map[int]bool) *Report {
	r := &run{plan: p, changes: map[string]*diff.Change{}, results: make([]*StepResult, len(p.Steps))}
	for i := range p.Changes {
		r.changes[p.Changes[i].Address] = &p.Changes[i]
	}
	for i, s := range p.Steps {
		r.results[i] = &StepResult{Step: s, Err: failed[s.ID], skipped: skipped[s.ID]}
		if skipped[s.ID] {
			r.results[i].Err = errInterrupted
		}
	}
	rep := r.report(len(skipped) > 0)
	rep.Elapsed = 12400 * time.Millisecond
	return rep
}

func TestCountsAreAsPeopleCount(t *testing.T) {
	rep := reportOf(countPlan(), nil, nil)
	want := Counts{Created: 1, Updated: 3, Restarted: 1, Suspended: 1, Replaced: 1, Deleted: 1, StateOnly: 1}
	if rep.Counts != want {
		t.Errorf("counts %+v, want %+v", rep.Counts, want)
	}
}

func TestHalfAReplacementCountsWhatWasDone(t *testing.T) {
	// The new endpoint was made; deleting the old one failed.
	rep := reportOf(countPlan(), map[int]error{6: errors.New("DELETE /x: 500 Internal Server Error")}, map[int]bool{7: true, 8: true})
	if rep.Counts.Replaced != 0 || rep.Counts.Created != 2 {
		t.Errorf("counts %+v: a replacement half done is a create, not a replacement", rep.Counts)
	}
	if len(rep.Done) != 5 || len(rep.Failed) != 1 || len(rep.NotAttempted) != 2 || !rep.Interrupted {
		t.Errorf("want 5 done, 1 failed, 2 not attempted, interrupted: %+v", rep)
	}
}
