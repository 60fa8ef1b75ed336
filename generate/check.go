package generate

import (
	"fmt"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// Check plans the generated configuration cfg (loaded with the rest of the
// directory's) against the live projects it was made from, with the state
// entries generate records: the plan must change nothing in the service and
// nothing in the state. It is what
// the next plan will do, checked before anything is written; a failure is a
// bug in neonform. opts are those of a plan of the directory.
func Check(cfg *config.Config, projects []*Project, res *Result, opts diff.Options) error {
	ids := map[string]bool{}
	live := &diff.Live{Projects: map[string]*diff.LiveProject{}}
	for _, p := range projects {
		ids[p.ID] = true
		live.Projects[p.ID] = &diff.LiveProject{ID: p.ID, Endpoints: diff.RecordLive(p.Endpoints), Branches: p.Branches}
	}
	// Only the generated projects: the others were not read.
	// Nor their budgets: generate describes what is live, whatever it
	// costs; the next plan says whether that is over a budget (docs/cost.md).
	only := *cfg
	only.Projects, only.Moves, only.Settings.Budget = nil, nil, nil
	for _, p := range cfg.Projects {
		if ids[p.ID] {
			unbudgeted := *p
			unbudgeted.Budget = nil
			only.Projects = append(only.Projects, &unbudgeted)
		}
	}
	st := state.New()
	for _, c := range res.Computes {
		st.Computes[c.Address] = c.Record()
	}
	plan, diags := diff.Build(&only, st, live, opts)
	if diags.HasErrors() {
		return fmt.Errorf("planning the generated configuration fails (this is a bug in neonform): %s", diags.String())
	}
	var wrong []string
	for _, ch := range plan.Changes {
		switch {
		case ch.Action == diff.NoOp:
		default:
			wrong = append(wrong, fmt.Sprintf("%s %s %v", ch.Action, ch.Address, ch.Attributes))
		}
	}
	for _, s := range plan.Steps {
		if s.Kind == diff.StepState {
			wrong = append(wrong, fmt.Sprintf("state-only step for %s (%s)", s.Address, s.Note))
		}
	}
	for _, d := range plan.Drift {
		wrong = append(wrong, fmt.Sprintf("drift of %s", d.Address))
	}
	if len(wrong) > 0 {
		return fmt.Errorf("the plan of the generated configuration is not a no-op (this is a bug in neonform): %s", strings.Join(wrong, "; "))
	}
	return nil
}
