package emulator

import (
	"net/http"
	"time"

	"github.com/neonform/neonform/api"
)

// branchUpdateBody is BranchUpdateRequest (the attributes the emulator models).
type branchUpdateBody struct {
	Branch *struct {
		Name      *string `json:"name"`
		Protected *bool   `json:"protected"`
	} `json:"branch"`
}

// lockBranchToChange finds the branch of a call's path in its locked project, for a
// change: 404 when there is no such branch, 423 while operations run. On success
// the caller holds p.mu and unlocks it.
func (e *Emulator) lockBranchToChange(c *call) (*project, *branch, error) {
	p, err := e.lockProject(c)
	if err != nil {
		return nil, nil, err
	}
	id := c.param("branch_id")
	b := p.branches[id]
	switch {
	case b == nil:
		err = branchNotFound(id)
	case p.busy(c.now):
		err = locked()
	}
	if err != nil {
		p.mu.Unlock()
		return nil, nil, err
	}
	return p, b, nil
}

// updateBranch renames a branch or changes its protection: 200 with the branch and no
// operations (nothing runs on a compute for it).
func (e *Emulator) updateBranch(c *call) (int, any, error) {
	var body branchUpdateBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	in := body.Branch
	if in == nil {
		return 0, nil, badRequest(`the body needs a "branch" object, e.g. {"branch":{"name":"dev"}}`)
	}
	if in.Name != nil && (len(*in.Name) < 1 || len(*in.Name) > 256) {
		return 0, nil, badRequest("branch name must be 1 to 256 characters long")
	}
	p, b, err := e.lockBranchToChange(c)
	if err != nil {
		return 0, nil, err
	}
	if in.Name != nil && *in.Name != b.Name && p.branchByName(*in.Name) != nil {
		p.mu.Unlock()
		return 0, nil, conflict(codeConflict, "a branch named %q already exists in project %s; branch names are unique", *in.Name, p.ID)
	}
	setIf(&b.Name, in.Name)
	setIf(&b.Protected, in.Protected)
	b.UpdatedAt, p.UpdatedAt = c.now, c.now
	out := api.BranchOperations{Branch: b.wire(c.now, false), Operations: []api.Operation{}}
	p.mu.Unlock()
	return http.StatusOK, out, e.save()
}

// setDefaultBranch makes a branch the project's default (setDefaultProjectBranch in
// the full service description): the previous default loses the designation, and
// the answer is the branch with no operations, as the reference's example shows
// (docs/service.md, Resources). A project-scoped key may do it in its project.
func (e *Emulator) setDefaultBranch(c *call) (int, any, error) {
	p, b, err := e.lockBranchToChange(c)
	if err != nil {
		return 0, nil, err
	}
	if old := p.defaultBranch(); old != nil && old != b {
		old.Default, old.UpdatedAt = false, c.now
	}
	b.Default, b.UpdatedAt, p.UpdatedAt = true, c.now, c.now
	out := api.BranchOperations{Branch: b.wire(c.now, false), Operations: []api.Operation{}}
	p.mu.Unlock()
	return http.StatusOK, out, e.save()
}

// deleteBranch removes a branch and its computes: 200 with the branch's last record
// and the operations that suspend its computes and delete its timeline (the project is
// busy until they finish); 204 when the branch does not exist. As the service does, it
// refuses the default branch, a protected branch and a branch with children.
func (e *Emulator) deleteBranch(c *call) (int, any, error) {
	p, err := e.lockProject(c)
	if err != nil {
		return 0, nil, err
	}
	id := c.param("branch_id")
	if p.branches[id] == nil {
		p.mu.Unlock()
		return http.StatusNoContent, nil, nil
	}
	out, err := e.deleteBranchLocked(p, id, c.now)
	p.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, out, e.save()
}

func (e *Emulator) deleteBranchLocked(p *project, id string, now time.Time) (api.BranchOperations, error) {
	var none api.BranchOperations
	b := p.branches[id]
	switch {
	case b.Default:
		return none, badRequest("branch %s is the project's default branch, which cannot be deleted; a project keeps at least one branch", id)
	case b.Protected:
		return none, badRequest("branch %s is protected; remove its protection with PATCH {\"branch\":{\"protected\":false}} first", id)
	case p.busy(now):
		return none, locked()
	}
	for _, other := range p.branches {
		if other.ParentID == id {
			return none, conflict(codeConflict, "branch %s has a child branch (%s); delete the children first", id, other.ID)
		}
	}
	var steps []opStep
	for _, ep := range p.endpointOrder {
		if ep.BranchID == id {
			steps = append(steps, opStep{action: api.ActionSuspendCompute, branchID: id, endpointID: ep.ID})
		}
	}
	steps = append(steps, opStep{action: api.ActionDeleteTimeline, branchID: id})
	last := b.wire(now, false)
	ops := e.startChain(p, now, steps...)
	for _, s := range steps[:len(steps)-1] {
		e.dropSessions(p.endpoints[s.endpointID])
		p.removeEndpoint(s.endpointID)
		e.w.forgetEndpoint(s.endpointID)
	}
	delete(p.branches, id)
	e.w.forgetBranch(id)
	e.branchesDeleted(id)
	p.UpdatedAt = now
	return api.BranchOperations{Branch: last, Operations: wireOps(ops, now, true)}, nil
}
