package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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
func (c *Client) WaitOperations(ctx context.Context, projectID string, ops []Operation) error {
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
	for len(pending) > 0 {
		if err := c.sleep(wctx, c.poll); err != nil {
			return c.waitError(ctx, err, describe(pending[0]))
		}
		still := pending[:0]
		for _, op := range pending {
			project := projectID
			if project == "" {
				project = op.ProjectID
			}
			now, err := c.GetOperation(wctx, project, op.ID)
			if err != nil {
				return c.waitError(ctx, err, describe(op))
			}
			switch {
			case now.Status.Failed():
				return operationError(*now)
			case !now.Status.Terminal():
				still = append(still, *now)
			}
		}
		pending = still
	}
	return nil
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
	return page.Operations, nil
}

// WaitProjectIdle waits until no operation of the project is running (the
// state in which the service accepts a mutation instead of answering 423).
// Failed operations do not count: they are over. Each poll is one request:
// the newest page of operations (idlePage).
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
	for {
		ops, err := c.newestOperations(wctx, projectID)
		if err != nil {
			return c.waitError(ctx, err, "the operations of project "+projectID)
		}
		var first *Operation
		n := 0
		for i := range ops {
			if !ops[i].Status.Terminal() {
				if first == nil {
					first = &ops[i]
				}
				n++
			}
		}
		if first == nil {
			return nil
		}
		if running != nil {
			running(n)
		}
		if err := c.waitFor(wctx, c.poll, "for "+describe(*first)+" to finish"); err != nil {
			return c.waitError(ctx, err, describe(*first))
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
