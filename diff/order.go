package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
)

// order puts the project's steps in an order the service accepts (DESIGN
// section 5): a read_write compute arrives on a branch only after the one
// standing there has left; a replacement creates first and deletes after,
// unless the new compute needs the old one's place. The result is
// deterministic: state-only steps first, then by address, except that a step
// ending a branch's time without a read_write compute runs as soon as it can.
func (pp *projectPlan) order() {
	leaver := map[string]*op{}
	for _, o := range pp.ops {
		if o.leaves != "" {
			leaver[o.leaves] = o
		}
	}
	for _, o := range pp.ops {
		if o.arrives == "" {
			continue
		}
		standing := pp.liveReadWrite(o.arrives)
		if standing == nil {
			continue
		}
		l := leaver[o.arrives]
		if l == nil {
			pp.errorf(pp.subject(o), "Branch already has a read_write compute",
				"%s would put a read_write compute on branch %s, but %s already is its read_write compute and stays: a branch holds one. "+
					"Declare %s as this compute (import it), or delete it, or mark the branch exclusive = true so the plan deletes it first.",
				o.step.Address, pp.branchName(o.arrives), describeEndpoint(pp, standing), standing.ID)
			continue
		}
		o.deps = append(o.deps, l)
		o.urgent = true
		o.change.Downtime = true
		o.change.Reasons = append(o.change.Reasons, downtimeReason(pp, o, l))
	}
	for _, o := range pp.ops {
		if o.replaces != nil && !slices.Contains(o.deps, o.replaces) {
			o.replaces.deps = append(o.replaces.deps, o) // create first, delete after: the shortest gap
		}
	}
	pp.ops = pp.sortOps()
}

// sortOps is a topological sort that always picks the best ready step, so the
// same inputs give the same order. Steps left over form a cycle.
func (pp *projectPlan) sortOps() []*op {
	done := make(map[*op]bool, len(pp.ops))
	out := make([]*op, 0, len(pp.ops))
	ready := func(o *op) bool {
		for _, d := range o.deps {
			if !done[d] {
				return false
			}
		}
		return true
	}
	for len(out) < len(pp.ops) {
		var best *op
		for _, o := range pp.ops {
			if !done[o] && ready(o) && (best == nil || opBefore(o, best)) {
				best = o
			}
		}
		if best == nil {
			pp.cycleError(done)
			return out
		}
		done[best] = true
		out = append(out, best)
	}
	return out
}

func opBefore(a, b *op) bool {
	rank := func(o *op) int {
		switch {
		case o.urgent:
			return 0
		case o.step.Kind == StepState:
			return 1
		}
		return 2
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c < 0
	}
	if c := strings.Compare(a.step.Address, b.step.Address); c != 0 {
		return c < 0
	}
	return a.seq < b.seq
}

// cycleError explains read_write computes that wait on each other, such as two
// primaries swapping branches.
func (pp *projectPlan) cycleError(done map[*op]bool) {
	var waits []string
	var subject *hcl.Range
	for _, o := range pp.ops {
		if done[o] || o.arrives == "" {
			continue
		}
		if subject == nil {
			subject = pp.subject(o)
		}
		waiting := "the read_write compute there"
		if l := pp.liveReadWrite(o.arrives); l != nil {
			waiting = describeEndpoint(pp, l)
		}
		waits = append(waits, fmt.Sprintf("%s moves onto branch %s, which must first be left by %s",
			o.step.Address, pp.branchName(o.arrives), waiting))
	}
	pp.errorf(subject, "Read-write computes cannot swap branches",
		"%s. A branch holds one read_write compute at every moment, so none of these moves can go first. "+
			"Do it in two applies: first move one of them to a branch that has no read_write compute "+
			"(or remove its moved block, so it is deleted and created anew, with downtime and a new host), apply, "+
			"then move it on to where you want it.", strings.Join(waits, "; "))
}

// liveReadWrite returns the live read_write endpoint of a branch, or nil.
func (pp *projectPlan) liveReadWrite(branchID string) *api.Endpoint {
	for _, ep := range pp.onBranch[branchID] {
		if ep.Type == api.EndpointTypeReadWrite {
			return ep
		}
	}
	return nil
}

// subject points an ordering error at the moved block that causes it, or at
// the compute block.
func (pp *projectPlan) subject(o *op) *hcl.Range {
	if o.t == nil {
		return nil
	}
	if o.t.entry != nil && o.t.entry.move != nil {
		r := o.t.entry.move.DeclRange
		return &r
	}
	r := o.t.c.DeclRange
	return &r
}

// describeEndpoint is "ep-... (shop.main.old)" when something names the endpoint.
func describeEndpoint(pp *projectPlan, ep *api.Endpoint) string {
	if addr := pp.taken[ep.ID]; addr != "" {
		return fmt.Sprintf("%s (%s)", ep.ID, addr)
	}
	if addr, ok := pp.claimed[ep.ID]; ok {
		return fmt.Sprintf("%s (%s)", ep.ID, addr)
	}
	return ep.ID + " (not managed by neonform)"
}

func downtimeReason(pp *projectPlan, arriving, leaving *op) string {
	branch := pp.branchName(arriving.arrives)
	if arriving.replaces == leaving {
		return fmt.Sprintf("downtime: the old endpoint is deleted first, because branch %s holds one read_write compute at a time; "+
			"the branch has no read_write compute until the new one is up", branch)
	}
	how := "is deleted"
	if leaving.step.Kind == StepUpdate {
		how = "moves to branch " + pp.branchName(leaving.arrives)
	}
	what := "this one is created"
	if arriving.step.Kind == StepUpdate {
		what = "this one has moved in"
	}
	s := fmt.Sprintf("downtime: branch %s holds one read_write compute at a time; %s %s first, so the branch has none until %s",
		branch, describeEndpoint(pp, pp.liveReadWrite(arriving.arrives)), how, what)
	if arriving.step.Kind == StepCreate && leaving.change != nil && leaving.change.Action == Delete && leaving.step.Forget != "" && arriving.replaces == nil {
		s += fmt.Sprintf(". If %s is %s renamed, a moved block keeps the endpoint and its host with no downtime: "+
			"moved { from = %q to = %q }", arriving.step.Address, leaving.step.Address, leaving.step.Address, arriving.step.Address)
	}
	return s
}

// appendSteps numbers the project's steps from nextID, in order, and adds
// them to the plan; it returns the next free id.
func (pp *projectPlan) appendSteps(plan *Plan, nextID int) int {
	for _, o := range pp.ops {
		o.id = nextID
		nextID++
	}
	for _, o := range pp.ops {
		s := o.step
		s.ID = o.id
		s.After = []int{}
		for _, d := range o.deps {
			if d.id != 0 {
				s.After = append(s.After, d.id)
			}
		}
		slices.Sort(s.After)
		plan.Steps = append(plan.Steps, s)
	}
	return nextID
}
