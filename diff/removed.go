package diff

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
)

// startRemovals indexes the removed blocks, and refuses one whose compute
// is declared once the branch rules are applied (the configuration refused
// the others): a rule's instance exists only for a live branch it matches.
func (pl *planner) startRemovals() {
	pl.removals = make(map[string]*config.Removal, len(pl.cfg.Removals))
	for _, r := range pl.cfg.Removals {
		if c := pl.inConfig[r.From]; c != nil {
			rng := r.FromRange
			pl.errorf(&rng, "Removed compute is still declared",
				"%s is declared: the branches block at %s declares it on the live branch of that name. Remove this removed block, or exclude the branch from the rule.", r.From, where(c.DeclRange))
			continue
		}
		pl.removals[r.From] = r
	}
}

// forgetRemoved plans forgetting a compute that a removed block with
// lifecycle { destroy = false } lets go: its endpoint keeps running,
// unmanaged, which an exclusive branch would not allow (its next plan would
// delete the endpoint as one no block declares).
func (pp *projectPlan) forgetRemoved(e *stateEntry, r *config.Removal) {
	if b := pp.branchOf[e.c.BranchID]; b != nil && b.Exclusive {
		rng := r.DeclRange
		pp.errorf(&rng, "Forgotten compute on an exclusive branch",
			"Branch %s.%s is exclusive, so once %s is forgotten the next plan would delete its endpoint %s as one no compute block declares. "+
				"To keep the endpoint, make the branch not exclusive; to delete it, set destroy = true.", pp.p.Label, b.Label, e.addr, e.c.EndpointID)
		return
	}
	pp.forget = append(pp.forget, e.addr)
}

// forgetRemoved adds the state-only step of each compute the plan forgets
// (Plan.Forget) in this project. Each must be in the state, with its endpoint
// live, and no change may act on it.
func (d *deriver) forgetRemoved(forget []string, changes []*Change) error {
	acted := map[string]string{}
	for _, ch := range changes {
		acted[ch.EndpointID] = ch.Address
		acted[ch.Address] = ch.Address
	}
	for _, addr := range forget {
		c := d.st.Computes[addr]
		switch {
		case c == nil:
			return fmt.Errorf("it forgets %s, which the state does not record", addr)
		case c.ProjectID != d.project:
			continue
		case d.live[c.EndpointID] == nil:
			return fmt.Errorf("it forgets %s, whose endpoint %s it did not see live", addr, c.EndpointID)
		case acted[c.EndpointID] != "" || acted[addr] != "":
			return fmt.Errorf("it forgets %s, which its change %s acts on", addr, acted[c.EndpointID]+acted[addr])
		}
		d.addOp(&op{step: Step{Kind: StepState, Address: addr, EndpointID: c.EndpointID, Forget: addr,
			Note:      fmt.Sprintf("forget: the endpoint %s stays, unmanaged (removed block, destroy = false)", c.EndpointID),
			Sensitive: slices.Clone(c.Sensitive), SensitiveFrom: maps.Clone(c.SensitiveFrom)}})
	}
	return nil
}

// where is "main.hcl:12", for messages that point at a second place.
func where(rng hcl.Range) string { return fmt.Sprintf("%s:%d", rng.Filename, rng.Start.Line) }
