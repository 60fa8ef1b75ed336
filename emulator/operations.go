package emulator

import (
	"net/http"
	"strconv"
	"time"

	"github.com/neonform/neonform/api"
)

// opStep is one operation of a chain to start.
type opStep struct {
	action     api.OperationAction
	branchID   string
	endpointID string
}

// startChain adds operations that run one after another, each OpDelay long, from now
// (or after the running chain, for a wake by a connection, which the service never
// refuses), and returns them. The project is busy (mutations get 423) until the last
// finishes. Caller holds p.mu for writing.
func (e *Emulator) startChain(p *project, now time.Time, steps ...opStep) []*operation {
	out := make([]*operation, 0, len(steps))
	at := now
	if p.busyUntil.After(at) {
		at = p.busyUntil
	}
	for i, s := range steps {
		op := &operation{ID: e.ids.uuid(), ProjectID: p.ID, BranchID: s.branchID, EndpointID: s.endpointID,
			Action: s.action, Step: i, CreatedAt: now, StartAt: at, FinishAt: at.Add(e.opDelayNow())}
		at = op.FinishAt
		p.opIndex[op.ID] = len(p.ops)
		p.ops = append(p.ops, op)
		out = append(out, op)
	}
	if at.After(p.busyUntil) {
		p.busyUntil = at
	}
	return out
}

// chainEnd is when the last of ops finishes.
func chainEnd(ops []*operation, now time.Time) time.Time {
	if len(ops) == 0 {
		return now
	}
	return ops[len(ops)-1].FinishAt
}

const (
	defaultOpsLimit = 10
	maxOpsLimit     = 1000
)

// listOperations pages through a project's operations, newest first. The cursor is the
// id of the last operation of the previous page (Pagination style: pass it back as is).
func (e *Emulator) listOperations(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	limit, err := queryLimit(c, defaultOpsLimit, maxOpsLimit)
	if err != nil {
		return 0, nil, err
	}
	cursor := c.r.URL.Query().Get("cursor")
	p.mu.RLock()
	start := len(p.ops) - 1
	if cursor != "" {
		i, ok := p.opIndex[cursor]
		if !ok {
			p.mu.RUnlock()
			return 0, nil, badRequest("cursor %q is not one this list gave out; start again without a cursor", cursor)
		}
		start = i - 1
	}
	ops := make([]api.Operation, 0, min(limit, start+1))
	for i := start; i >= 0 && len(ops) < limit; i-- {
		ops = append(ops, p.ops[i].wire(c.now, false))
	}
	p.mu.RUnlock()
	out := api.OperationsResponse{Operations: ops}
	if len(ops) > 0 {
		out.Pagination = &api.Pagination{Cursor: ops[len(ops)-1].ID}
	}
	return http.StatusOK, out, nil
}

func (e *Emulator) getOperation(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	id := c.param("operation_id")
	p.mu.RLock()
	defer p.mu.RUnlock()
	i, ok := p.opIndex[id]
	if !ok {
		return 0, nil, errorf(http.StatusNotFound, codeOperationMissing, "operation %s not found in project %s", id, p.ID)
	}
	return http.StatusOK, api.OperationResponse{Operation: p.ops[i].wire(c.now, false)}, nil
}

// queryLimit reads the limit query parameter: def when absent, 1..max otherwise.
func queryLimit(c *call, def, max int) (int, error) {
	s := c.r.URL.Query().Get("limit")
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, badRequest("limit %q must be a whole number from 1 to %d", s, max)
	}
	return n, nil
}
