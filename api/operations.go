package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// ListOperations returns every operation of a project, all pages.
func (c *Client) ListOperations(ctx context.Context, projectID string) ([]Operation, error) {
	path, err := projectPath(projectID, lit("operations"))
	if err != nil {
		return nil, err
	}
	return listAll(ctx, c, path, maxOperationsPage,
		func(p *OperationsResponse) []Operation { return p.Operations },
		func(p *OperationsResponse) string {
			if p.Pagination == nil {
				return ""
			}
			return p.Pagination.Cursor
		})
}

// GetOperation returns one operation.
func (c *Client) GetOperation(ctx context.Context, projectID, operationID string) (*Operation, error) {
	path, err := projectPath(projectID, lit("operations"), idPart("operation", operationID))
	if err != nil {
		return nil, err
	}
	var out OperationResponse
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return &out.Operation, nil
}

// WaitOperations polls ops until every one is terminal. finished and skipped
// succeed; the first failed, error or cancelled one ends the wait with an
// *OperationFailedError naming its action, endpoint and error text. It gives up
// after Options.OperationTimeout unless ctx ends sooner.
//
// Each poll is one request a project, whatever the number of its operations
// waited for: the newest page of its operations (pollOperations). The polls
// come when the operations are expected to be over (schedule.go).
func (c *Client) WaitOperations(ctx context.Context, projectID string, ops []Operation) error {
	return c.WaitOperationsAfter(ctx, projectID, ops, 0)
}

// WaitOperationsAfter is WaitOperations for operations whose call was
// answered already ago: the first poll comes when they are expected to be
// over counted from the answer, not from this call. A caller that does
// something between the two (apply records the step in the state first)
// would otherwise add that time to the wait of every step.
func (c *Client) WaitOperationsAfter(ctx context.Context, projectID string, ops []Operation, already time.Duration) error {
	c.durations.mine(ops)
	pending := make([]Operation, 0, len(ops))
	for _, op := range ops {
		if op.Status.Failed() {
			return operationError(op)
		}
		if !op.Status.Terminal() {
			pending = append(pending, op)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, c.opTimeout)
	defer cancel()
	when := c.newSchedule()
	for len(pending) > 0 {
		pause := when.next(pending) - already
		already = 0 // the first pause only
		if err := c.sleep(wctx, pause); err != nil {
			return c.waitError(ctx, err, describe(pending[0]))
		}
		now, err := c.pollOperations(wctx, projectID, pending)
		if err != nil {
			return c.waitError(ctx, err, describe(pending[0]))
		}
		still := now[:0]
		for _, op := range now {
			switch {
			case op.Status.Failed():
				return operationError(op)
			case !op.Status.Terminal():
				still = append(still, op)
			}
		}
		pending = still
	}
	return nil
}

// pollOperations reads ops again, as they are now: one page of each
// project's newest operations, where they are unless more than a page of
// others started after them; those are read one by one.
func (c *Client) pollOperations(ctx context.Context, projectID string, ops []Operation) ([]Operation, error) {
	pages := map[string]map[string]Operation{}
	out := make([]Operation, 0, len(ops))
	for _, op := range ops {
		project := projectID
		if project == "" {
			project = op.ProjectID
		}
		page, ok := pages[project]
		if !ok {
			newest, err := c.newestOperations(ctx, project)
			if err != nil {
				return nil, err
			}
			page = make(map[string]Operation, len(newest))
			for _, o := range newest {
				page[o.ID] = o
			}
			pages[project] = page
		}
		now, ok := page[op.ID]
		if !ok {
			one, err := c.GetOperation(ctx, project, op.ID)
			if err != nil {
				return nil, err
			}
			c.durations.learn([]Operation{*one})
			now = *one
		}
		out = append(out, now)
	}
	return out, nil
}

// idlePage is how many of a project's newest operations WaitProjectIdle
// reads. The service runs a project's operations one chain at a time and
// refuses a mutation while one runs (423), so the operations created after
// a running one are the few queued behind it: a running operation is always
// among the newest, and the rest of the history (six months of it) is over.
const idlePage = 50

// newestOperations is the first page of a project's operations, newest first.
func (c *Client) newestOperations(ctx context.Context, projectID string) ([]Operation, error) {
	path, err := projectPath(projectID, lit("operations"))
	if err != nil {
		return nil, err
	}
	var page OperationsResponse
	if err := c.Do(ctx, http.MethodGet, path+"?limit="+strconv.Itoa(idlePage), nil, &page); err != nil {
		return nil, err
	}
	c.durations.learn(page.Operations)
	return page.Operations, nil
}

// LearnOperations reads the newest page of a project's operations, one
// request, for what it tells of how long operations take (ExpectedDuration,
// and so when polls come), and says how many of them still run.
func (c *Client) LearnOperations(ctx context.Context, projectID string) (running int, err error) {
	ops, err := c.newestOperations(ctx, projectID)
	for _, op := range ops {
		if !op.Status.Terminal() {
			running++
		}
	}
	return running, err
}

// WaitProjectIdle waits until no operation of the project is running (the
// state in which the service accepts a mutation instead of answering 423).
// Failed operations do not count: they are over. Each poll is one request:
// the newest page of operations (idlePage), when the running ones are
// expected to be over (schedule.go).
func (c *Client) WaitProjectIdle(ctx context.Context, projectID string) error {
	return c.WatchProjectIdle(ctx, projectID, nil)
}

// WatchProjectIdle is WaitProjectIdle that tells running, after each poll
// that found operations still running, how many: so that a caller waiting
// for operations it did not start can say what it waits for, instead of
// being silent for as long as they take. running may be nil.
func (c *Client) WatchProjectIdle(ctx context.Context, projectID string, running func(n int)) error {
	wctx, cancel := context.WithTimeout(ctx, c.opTimeout)
	defer cancel()
	when := c.newSchedule()
	for {
		ops, err := c.newestOperations(wctx, projectID)
		if err != nil {
			return c.waitError(ctx, err, "the operations of project "+projectID)
		}
		var busy []Operation
		for _, op := range ops {
			if !op.Status.Terminal() {
				busy = append(busy, op)
			}
		}
		if len(busy) == 0 {
			return nil
		}
		first := busy[0]
		if running != nil {
			running(len(busy))
		}
		if err := c.waitFor(wctx, when.next(busy), "for "+describe(first)+" to finish"); err != nil {
			return c.waitError(ctx, err, describe(first))
		}
	}
}

// waitError tells our own give-up from the caller's: when the caller's ctx
// is still alive, it was OperationTimeout that ran out.
func (c *Client) waitError(ctx context.Context, err error, what string) error {
	var gaveUp *WaitTimeoutError
	if errors.As(err, &gaveUp) {
		return err // it names what it waited for
	}
	if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("api: gave up after %s waiting for %s, still not done; the service may be slow: check the project's operations in the console, or raise the operation timeout", c.opTimeout, what)
	}
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("waiting for %s: %w (%v)", what, ctx.Err(), err)
	}
	return fmt.Errorf("waiting for %s: %w", what, err)
}

func describe(op Operation) string {
	s := "operation " + op.ID + " (" + string(op.Action)
	if op.EndpointID != "" {
		s += " of endpoint " + op.EndpointID
	}
	return s + ", " + string(op.Status) + ")"
}
