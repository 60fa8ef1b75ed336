package diff

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/diag"
)

// order puts the project's steps in an order the service accepts (docs/architecture.md,
// Ordering): a read_write compute arrives on a branch only after the one
// standing there has left; a replacement creates first and deletes after,
// unless the new compute needs the old one's place. The result is
// deterministic: state-only steps first, then by address, except that a step
// ending a branch's time without a read_write compute runs as soon as it can.
func (d *deriver) order(ctx context.Context) (diag.Diagnostics, error) {
	var problems diag.Diagnostics
	leaver := map[string]*op{}
	for _, o := range d.ops {
		if o.leaves != "" {
			leaver[o.leaves] = o
		}
	}
	for _, o := range d.ops {
		if o.arrives == "" {
			continue
		}
		standing := d.liveReadWrite(o.arrives)
		if standing == nil {
			continue
		}
		l := leaver[o.arrives]
		if l == nil {
			problems = append(problems, diag.AtAddress(o.step.Address, "Branch already has a read_write compute",
				fmt.Sprintf("%s would put a read_write compute on branch %s, but %s already is its read_write compute and stays: a branch holds one. "+
					"Declare %s as this compute (import it), or delete it, or mark the branch exclusive = true so the plan deletes it first.",
					o.step.Address, d.branchName(o.arrives), d.describeEndpoint(standing), standing.ID)))
			continue
		}
		o.deps = append(o.deps, l)
		o.urgent = true
		o.change.Downtime = true
		o.change.Reasons = withReason(o.change.Reasons, d.downtimeReason(o, l))
	}
	for _, o := range d.ops {
		if o.replaces != nil && !slices.Contains(o.deps, o.replaces) {
			o.replaces.deps = append(o.replaces.deps, o) // create first, delete after: the shortest gap
		}
	}
	sorted, cycle, err := d.sortOps(ctx)
	if err != nil {
		return nil, err
	}
	d.ops = sorted
	if cycle != nil {
		problems = append(problems, *cycle)
	}
	return problems, nil
}

// sortOps is a topological sort that always picks the best ready step
// (opBefore), so the same inputs give the same order. The ready steps wait
// in a heap, so 40,000 steps of one project are ordered in O(n log n), not
// by looking at every step again for each one placed (docs/PERFORMANCE.md).
// Steps left over form a cycle. It stops when ctx is done (an interrupt).
//
// What it keeps of each step (how many of its deps wait, which steps wait
// for it, whether it is placed) is in the step's op, not in maps keyed by
// the ops: three maps of 250,000 entries were 40 MB and a tenth of the
// ordering's time (docs/PERFORMANCE.md).
func (d *deriver) sortOps(ctx context.Context) ([]*op, *diag.Diagnostic, error) {
	for _, o := range d.ops {
		o.sorting = sorting{}
		for _, dep := range o.deps {
			dep.sorting = sorting{} // a dep of no step of d.ops, too
		}
	}
	ready := make(readyOps, 0, len(d.ops))
	for _, o := range d.ops {
		o.sorting.waiting = len(o.deps)
		for _, dep := range o.deps {
			dep.sorting.next = append(dep.sorting.next, o)
		}
		if len(o.deps) == 0 {
			ready = append(ready, o)
		}
	}
	heap.Init(&ready)
	out := make([]*op, 0, len(d.ops))
	for ready.Len() > 0 {
		if len(out)%interruptEvery == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		best := heap.Pop(&ready).(*op)
		best.sorting.placed = true
		out = append(out, best)
		for _, o := range best.sorting.next {
			if o.sorting.waiting--; o.sorting.waiting == 0 {
				heap.Push(&ready, o)
			}
		}
	}
	if len(out) < len(d.ops) {
		return out, d.cycleProblem(func(o *op) bool { return o.sorting.placed }), nil
	}
	return out, nil, nil
}

// sorting is what sortOps keeps of a step while it orders them.
type sorting struct {
	waiting int   // how many of its deps are not placed yet
	next    []*op // the steps that wait for it
	placed  bool
}

// interruptEvery is how many steps sortOps places between two looks at
// ctx: often enough to stop well within a second, rarely enough to cost
// nothing.
const interruptEvery = 1024

// readyOps is a heap of the steps whose deps are all placed, the first by
// opBefore on top.
type readyOps []*op

func (r readyOps) Len() int           { return len(r) }
func (r readyOps) Less(i, j int) bool { return opBefore(r[i], r[j]) }
func (r readyOps) Swap(i, j int)      { r[i], r[j] = r[j], r[i] }
func (r *readyOps) Push(x any)        { *r = append(*r, x.(*op)) }
func (r *readyOps) Pop() any {
	old := *r
	o := old[len(old)-1]
	*r = old[:len(old)-1]
	return o
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
func (d *deriver) cycleProblem(placed func(*op) bool) *diag.Diagnostic {
	var waits []string
	address := ""
	for _, o := range d.ops {
		if placed(o) || o.arrives == "" {
			continue
		}
		if address == "" {
			address = o.step.Address
		}
		waiting := "the read_write compute there"
		if l := d.liveReadWrite(o.arrives); l != nil {
			waiting = d.describeEndpoint(l)
		}
		waits = append(waits, fmt.Sprintf("%s moves onto branch %s, which must first be left by %s",
			o.step.Address, d.branchName(o.arrives), waiting))
	}
	p := diag.AtAddress(address, "Read-write computes cannot swap branches",
		fmt.Sprintf("%s. A branch holds one read_write compute at every moment, so none of these moves can go first. "+
			"Do it in two applies: first move one of them to a branch that has no read_write compute "+
			"(or remove its moved block, so it is deleted and created anew, with downtime and a new host), apply, "+
			"then move it on to where you want it.", strings.Join(waits, "; ")))
	return &p
}

// liveReadWrite returns the live read_write endpoint of a branch, or nil.
func (d *deriver) liveReadWrite(branchID string) *LiveEndpoint {
	for _, ep := range d.onBranch[branchID] {
		if ep.Type == api.EndpointTypeReadWrite {
			return ep
		}
	}
	return nil
}

// describeEndpoint is "ep-... (shop.main.old)" when something names the endpoint.
func (d *deriver) describeEndpoint(ep *LiveEndpoint) string {
	if addr := d.holderOf(ep); addr != "" {
		return fmt.Sprintf("%s (%s)", ep.ID, addr)
	}
	return ep.ID + " (not managed by neonform)"
}

// holderOf is the address of the compute a change keeps the endpoint for,
// else the state's; "" when neither names it.
func (d *deriver) holderOf(ep *LiveEndpoint) string {
	if addr := d.addressOf[ep.ID]; addr != "" {
		return addr
	}
	return d.holders[ep.ID]
}

// downtimeReason is why a compute arriving on a branch leaves it without a
// read_write compute for a while: leaving stands there and goes first.
func (d *deriver) downtimeReason(arriving, leaving *op) Reason {
	branch := d.branch(arriving.arrives)
	if arriving.replaces == leaving {
		return Reason{Kind: ReasonDowntimeReplace, Branch: &branch}
	}
	standing := d.liveReadWrite(arriving.arrives)
	r := Reason{Kind: ReasonDowntime, Branch: &branch, EndpointID: standing.ID, Address: d.holderOf(standing),
		MovedIn: arriving.step.Kind == StepUpdate}
	if leaving.step.Kind == StepUpdate {
		to := d.branch(leaving.arrives)
		r.ToBranch = &to
	}
	return r
}

// appendSteps numbers the project's steps from nextID, in order, and adds
// them to the plan; it returns the next free id.
func (d *deriver) appendSteps(plan *Plan, nextID int) int {
	for _, o := range d.ops {
		o.id = nextID
		nextID++
	}
	// Room for the project's steps at once: 250,000 steps of one project
	// appended one by one make the list anew some thirty times.
	plan.Steps = slices.Grow(plan.Steps, len(d.ops))
	for _, o := range d.ops {
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
