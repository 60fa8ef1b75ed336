package apply

import (
	"context"
	"errors"
	"slices"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// lock takes the locks apply needs to carry out p: those of the projects
// its steps change, when the backend locks projects one by one (Postgres),
// so that runs on other projects go on meanwhile; otherwise the whole
// state's. The locks are taken before the state is read again and the plan
// checked against it, so what the check finds stays true until the run
// ends. The plan's own steps name the projects: Verify refuses a plan
// whose steps are not those its changes derive.
func lock(ctx context.Context, p *diff.Plan, opts Options) (unlock func() error, err error) {
	ctx = state.WithOperation(ctx, "apply")
	named := labelLocks(p)
	waiting := opts.LockWaiting
	if waiting != nil {
		waiting = func(held *state.LockedError) { named(held); opts.LockWaiting(held) }
	}
	unlock, err = state.LockProjectsWaiting(ctx, opts.State, opts.Who, stepProjects(p.Steps), opts.LockTimeout, waiting)
	var held *state.LockedError
	if errors.As(err, &held) {
		named(held)
	}
	return unlock, err
}

// labelLocks gives a held project lock the project's name in the
// configuration, which the state does not know: the person waiting knows
// their projects as "svc", not by id.
func labelLocks(p *diff.Plan) func(*state.LockedError) {
	return func(held *state.LockedError) {
		for _, proj := range p.Projects {
			if proj.ID == held.Project {
				held.ProjectLabel = proj.Label
				return
			}
		}
	}
}

// stepProjects are the ids of the projects steps act on, sorted.
func stepProjects(steps []diff.Step) []string {
	ids := make([]string, 0, len(steps))
	for _, s := range steps {
		ids = append(ids, s.ProjectID)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}
