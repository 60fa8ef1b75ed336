package apply

import (
	"context"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// liveNow is the live endpoints of the changed projects, to check the plan
// against before anything is changed (checkLive) and to start from: those
// the caller read while planning moments ago (Options.PlanRead) as they are,
// the rest read again. A project the plan's read covers is read again all
// the same when one of its changes to the state alone records an endpoint (an
// adoption) whose host neither that read nor the state has: the plan reads
// no hosts, and the state records them for people.
func liveNow(ctx context.Context, opts Options, st *state.State, projects []diff.Project, steps []diff.Step) (map[string][]api.Endpoint, error) {
	if opts.PlanRead == nil {
		return fetchLive(ctx, opts.Client, projects, opts.Parallelism)
	}
	wanted := hostsWanted(steps, st)
	live := make(map[string][]api.Endpoint, len(projects))
	var again []diff.Project
	for _, proj := range projects {
		eps, read := opts.PlanRead[proj.ID]
		if !read || lacksHost(eps, wanted[proj.ID]) {
			again = append(again, proj)
			continue
		}
		live[proj.ID] = eps
	}
	if len(again) == 0 {
		return live, nil
	}
	reread, err := fetchLive(ctx, opts.Client, again, opts.Parallelism)
	for id, eps := range reread {
		live[id] = eps
	}
	return live, err
}

// hostsWanted are, by project, the endpoints that changes to the state alone
// record (adoptions, renames) and whose host the state does not have.
func hostsWanted(steps []diff.Step, st *state.State) map[string][]string {
	known := map[string]bool{}
	for _, c := range st.Computes {
		if c != nil && c.Host != "" {
			known[c.EndpointID] = true
		}
	}
	out := map[string][]string{}
	for _, s := range steps {
		if s.Kind == diff.StepState && s.Record != nil && s.Record.EndpointID != "" && !known[s.Record.EndpointID] {
			out[s.ProjectID] = append(out[s.ProjectID], s.Record.EndpointID)
		}
	}
	return out
}

// lacksHost: some endpoint of ids has no host in eps.
func lacksHost(eps []api.Endpoint, ids []string) bool {
	if len(ids) == 0 {
		return false
	}
	hosts := make(map[string]bool, len(eps))
	for _, ep := range eps {
		hosts[ep.ID] = ep.Host != ""
	}
	for _, id := range ids {
		if !hosts[id] {
			return true
		}
	}
	return false
}

// operationsRun is whether a project's endpoints, as read, show a sign of
// operations running: a compute being created (current_state init) or
// changing state (pending_state, which only a single endpoint's answer
// carries). Without one, apply sends its first change without reading the
// project's operations first; operations the list cannot show (someone
// else's change to a compute, a compute scaling to zero) are met by the
// service's 423, which the client waits out (Options' progress says so).
func operationsRun(eps []api.Endpoint) bool {
	for _, ep := range eps {
		if ep.CurrentState == api.EndpointStateInit || ep.PendingState != "" {
			return true
		}
	}
	return false
}

// learn reads, once a run, the operations of the first project that calls
// the service: how long its operations took is what the client expects of
// the run's (api.Client.ExpectedDuration), so that the first polls of every
// project come when their operations should be over, instead of guessing a
// second. One request a run, where reading each project's operations before
// its first change was one a project. It goes out with the run's first
// changes, not before them: what it teaches is needed only by the first
// poll, a whole operation later, and a step waits for it before its wait
// begins (awaitLearned). Which operations run now it does not say: the
// first project is treated as every other, waited for before its first
// change when its endpoints show operations running, its change otherwise
// answered 423 and sent again once they are over. A read that fails
// teaches nothing and stops nothing. learned is closed when it returns.
func (r *run) learn(ctx context.Context, order []string, byProject map[string][]int) {
	defer close(r.learned)
	defer r.budget.learnt()
	for _, id := range order {
		for _, i := range byProject[id] {
			if r.plan.Steps[i].Kind == diff.StepState {
				continue
			}
			_, _ = r.c.LearnOperations(ctx, id)
			return
		}
	}
}

// awaitLearned waits until learn returned (or ctx ended): a step's first
// poll is timed by what it learns.
func (r *run) awaitLearned(ctx context.Context) {
	select {
	case <-r.learned:
	case <-ctx.Done():
	}
}
