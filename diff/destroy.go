package diff

import (
	"fmt"
	"slices"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// planDestroy plans the deletion of every compute the state manages in a
// project (plan -destroy, neonform destroy), or of those its targets cover
// (-target), deposed endpoints of interrupted replacements included. No
// compute depends on another in the service's rules (docs/service.md: a
// branch has at most one primary and any number of replicas, none of which
// needs the primary), so a targeted destroy deletes what its targets cover
// and nothing else; a target of a branch or a project covers all of it. Endpoints the state does not manage are left
// alone, and listed; an entry whose endpoint is gone already is forgotten
// (derive.go). The configuration only says which computes refuse it
// (lifecycle.prevent_destroy); for a compute no longer configured, the
// state's record of it does.
func (pl *planner) planDestroy(p *config.Project, lp *LiveProject) ([]*Change, []Unmanaged) {
	pp := &projectPlan{pl: pl, p: p, lp: lp, live: make(map[string]*LiveEndpoint, len(lp.Endpoints))}
	for i := range lp.Endpoints {
		pp.live[lp.Endpoints[i].ID] = &lp.Endpoints[i]
	}
	held := map[string]bool{}
	branchLabel := map[string]string{} // branch id -> the label its computes' addresses give it
	for _, addr := range pl.st.Addresses() {
		if pl.look.stop() != nil {
			return nil, nil // interrupted: build returns the error
		}
		c := pl.st.Computes[addr]
		if c == nil || c.ProjectID != p.ID {
			continue
		}
		held[c.EndpointID] = true
		if _, b, _, err := config.ParseAddress(baseOf(addr)); err == nil {
			branchLabel[c.BranchID] = b
		}
		ep := pp.live[c.EndpointID]
		if ep == nil || !pl.scope.covers(addr) || pl.refusesDestroy(addr, c, ep) {
			continue
		}
		ch := pp.newChange(addr, Delete, ep)
		ch.Disruption = Remove
		ch.Sensitive, ch.SensitiveFrom = slices.Clone(c.Sensitive), state.CloneSensitiveFrom(c.SensitiveFrom) // its reason is derive's
	}
	for _, ep := range pp.sortedLive() {
		if !held[ep.ID] {
			pp.unmanaged = append(pp.unmanaged, Unmanaged{ProjectID: p.ID, ProjectLabel: p.Label, BranchID: ep.BranchID,
				BranchLabel: branchLabel[ep.BranchID], EndpointID: ep.ID, Name: ep.Name, Type: ep.Type})
		}
	}
	return pp.changes, pp.unmanaged
}

// refusesDestroy reports (as an error of the plan) a managed compute that
// lifecycle.prevent_destroy keeps: the configuration's block decides, or the
// state's record of a compute no longer configured.
func (pl *planner) refusesDestroy(addr string, c *state.Compute, ep *LiveEndpoint) bool {
	if cc := pl.inConfig[baseOf(addr)]; cc != nil {
		if !cc.PreventDestroy {
			return false
		}
		rng := cc.Range("lifecycle.prevent_destroy")
		rm := suggest.Run("state", "rm", addr)
		pl.refuse(&rng, "Compute cannot be destroyed",
			fmt.Sprintf("%s (%s) has lifecycle.prevent_destroy = true, so the destroy plan will not delete it, and nothing is destroyed. "+
				"To destroy it too, set prevent_destroy = false first. To destroy everything else and leave it running, stop managing it: %s.",
				addr, ep.ID, rm.Quoted()), rm)
		return true
	}
	if !c.PreventDestroy {
		return false
	}
	rm := suggest.Run("state", "rm", addr)
	pl.refuse(nil, "Compute cannot be destroyed",
		fmt.Sprintf("%s (%s) is no longer in the configuration, but the state records lifecycle.prevent_destroy = true for it, so the destroy plan will not delete it, and nothing is destroyed. "+
			"To destroy it too, put its compute block back, with prevent_destroy = false. To leave it running: %s.",
			addr, ep.ID, rm.Quoted()), rm)
	return true
}
