package apply

import (
	"context"
	"fmt"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/suggest"
)

// A create whose answer was lost is recovered by looking on its branch for
// the endpoint it may have made (findCreated). What is found there is adopted
// only when it is what the create asked for, by the attribute table's
// equality rules: an endpoint of the same name that differs may be someone
// else's, and recording it would hand it to this compute unseen.

// findCreated returns the endpoint a create with a lost answer made: on the
// step's branch, with its name and type, not there when the apply started
// and not in the state. nil when there is none.
func (r *run) findCreated(ctx context.Context, s *diff.Step) (*api.Endpoint, error) {
	eps, err := r.c.ListBranchEndpoints(ctx, s.ProjectID, s.Record.BranchID)
	if err != nil {
		return nil, err
	}
	var found *api.Endpoint
	for i := range eps {
		ep := &eps[i]
		if ep.Name != s.Name || ep.Type != s.Record.Type || r.atStart[s.ProjectID][ep.ID] || r.rec.claimed(ep.ID) {
			continue
		}
		if found == nil || ep.CreatedAt.Before(found.CreatedAt) {
			found = ep
		}
	}
	return found, nil
}

// notTheCreated says why ep, found after the lost answer of create s, is not
// adopted: some value differs from what the create asked for. nil when every
// value is the create's, by the equality rules.
func (r *run) notTheCreated(s *diff.Step, ep *api.Endpoint) error {
	differ := diff.Differences(diff.LiveValues(ep), diff.AppliedValues(s.Record))
	if len(differ) == 0 {
		return nil
	}
	hidden := map[string]diff.Attribute{}
	if ch := r.changes[s.Address]; ch != nil {
		for _, a := range ch.Attributes {
			hidden[a.Name] = a
		}
	}
	var what []string
	for _, a := range differ {
		if h := hidden[a.Name]; h.Sensitive {
			a.Sensitive, a.SensitiveFrom = true, h.SensitiveFrom
		}
		there, asked := a.Values()
		what = append(what, fmt.Sprintf("%s is %s there, the create asked for %s", a.Name, there, asked))
	}
	return &FoundNotCreatedError{Address: s.Address, EndpointID: ep.ID, Name: ep.Name, Differences: what}
}

// FoundNotCreatedError is a create whose answer was lost, after which the
// branch had a new endpoint of the create's name and type whose values are
// not the create's: it is left alone and nothing is recorded for it.
type FoundNotCreatedError struct {
	Address, EndpointID, Name string
	// Differences says, per attribute, what the endpoint has and what the
	// create asked for.
	Differences []string
}

func (e *FoundNotCreatedError) Error() string {
	return fmt.Sprintf("the answer to the create was lost, and the branch now has a new endpoint named %q, %s, "+
		"but it is not what the create asked for (%s), so it may be someone else's: it was not adopted, and nothing was recorded for %s. "+
		"If it is the one this apply made, record it with %s; otherwise delete or rename it. Then run %s again",
		e.Name, e.EndpointID, strings.Join(e.Differences, "; "), e.Address, e.importIt().Quoted(), Replan.Quoted())
}

// importIt is the import that records the endpoint found at the address.
func (e *FoundNotCreatedError) importIt() suggest.Command {
	return suggest.Run("import", e.Address, e.EndpointID)
}

// Suggestions are the import and the plan the error suggests.
func (e *FoundNotCreatedError) Suggestions() []suggest.Command {
	return []suggest.Command{e.importIt(), Replan}
}

// adoptedStep is create s as it records ep, the endpoint it was found to
// have made: with ep's own values, which equal the create's by the equality
// rules but may not be identical (the service's default suspend timeout, 0,
// for the 5 minutes asked), so that the state says what is there.
func adoptedStep(s *diff.Step, ep *api.Endpoint) *diff.Step {
	rec := diff.LiveValues(ep).Record(ep.ID, s.Record.ProjectID, s.Record.PreventDestroy)
	// What the plan would have recorded beside the values stays: the branch's
	// name, the host, and which values came from sensitive variables.
	rec.BranchName, rec.Host, rec.Sensitive, rec.SensitiveFrom = s.Record.BranchName, s.Record.Host, s.Record.Sensitive, s.Record.SensitiveFrom
	adopted := *s
	adopted.Record = rec
	return &adopted
}
