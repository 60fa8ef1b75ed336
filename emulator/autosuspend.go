package emulator

import (
	"slices"
	"time"

	"github.com/neonform/neonform/api"
)

// Scale to zero. When an active compute has had no activity for its suspend timeout,
// the service's control plane suspends it with a suspend_compute operation like any
// other: it runs for OpDelay, the project answers 423 meanwhile, and the compute shows
// active pending idle until it finishes (docs/service.md, States and operations).
//
// Nothing ticks in the emulator, so these operations are recorded when the project is
// next looked at (catchUp), dated when the timeout passed. Every path that reads or
// changes a project's computes or operations catches up first, so no answer can tell
// the difference.

// autoSuspendAt is when the control plane suspends the compute for lack of activity:
// its last activity plus its suspend timeout, and never before its last change (a
// shorter timeout set by a PATCH counts from then). false when it is not active or
// never suspends.
func (ep *endpoint) autoSuspendAt() (time.Time, bool) {
	l := &ep.Life
	if l.To != api.EndpointStateActive || ep.conns > 0 {
		return time.Time{}, false // an open connection keeps it up
	}
	d, ok := suspendAfter(ep.SuspendTimeout)
	if !ok {
		return time.Time{}, false
	}
	last := l.LastActive
	if last.Before(l.At) {
		last = l.At
	}
	at := last.Add(d)
	if at.Before(ep.UpdatedAt) {
		at = ep.UpdatedAt
	}
	return at, true
}

// suspendsDue reports whether a compute of the project is past its suspend time at now
// without its operation recorded. Caller holds p.mu.
func (p *project) suspendsDue(now time.Time) bool {
	for _, ep := range p.endpointOrder {
		if at, ok := ep.autoSuspendAt(); ok && !at.After(now) {
			return true
		}
	}
	return false
}

// catchUp records the automatic suspends due at now, and saves the world if there
// were any. The common case, nothing due, costs a scan under the read lock.
func (e *Emulator) catchUp(p *project, now time.Time) error {
	p.mu.RLock()
	due := p.suspendsDue(now)
	p.mu.RUnlock()
	if !due {
		return nil
	}
	p.mu.Lock()
	n := e.recordSuspends(p, now)
	p.mu.Unlock()
	if n == 0 {
		return nil
	}
	return e.save()
}

// recordSuspends adds a suspend_compute operation for every compute past its suspend
// time, in the order their timeouts passed, each started then (or after the operations
// already running then). It returns how many it added. Caller holds p.mu for writing.
func (e *Emulator) recordSuspends(p *project, now time.Time) int {
	type due struct {
		ep *endpoint
		at time.Time
	}
	var list []due
	for _, ep := range p.endpointOrder {
		if at, ok := ep.autoSuspendAt(); ok && !at.After(now) {
			list = append(list, due{ep, at})
		}
	}
	slices.SortStableFunc(list, func(a, b due) int { return a.at.Compare(b.at) })
	for _, d := range list {
		ops := e.startChain(p, d.at, opStep{action: api.ActionSuspendCompute, branchID: d.ep.BranchID, endpointID: d.ep.ID})
		d.ep.suspendFor(d.at, chainEnd(ops, d.at))
		e.endRun(d.ep)
	}
	return len(list)
}

// suspendFor orders the automatic suspend decided at: active, pending idle, until the
// operation finishes at end. The compute's last activity and start are kept.
func (ep *endpoint) suspendFor(at, end time.Time) {
	l := ep.Life
	last := l.LastActive
	if last.Before(l.At) {
		last = l.At
	}
	started := l.At
	ep.Life = lifecycle{From: api.EndpointStateActive, To: api.EndpointStateIdle, At: end, LastActive: last, StartedAt: &started}
}
