package pgbudget

import (
	"context"
	"sync"
)

// answers are the requests whose answers came back and are not recorded
// yet. A burst's answers come back together; each was an update of its own,
// queued with the spends for the budget's two connections. They are
// recorded together instead, an update at a time: those that come back while
// one is out go in the next.
type answers struct {
	mu      sync.Mutex
	ids     []int64
	sending bool
}

// answered records on the database's clock that request id's answer came
// back, with the others waiting. Recorded later than it came back, it counts
// a little longer, on the safe side; failing, the request counts as
// unanswered until it is stale: the budget errs on the safe side, and the
// run goes on.
func (b *Budget) answered(id int64) {
	a := &b.answers
	a.mu.Lock()
	a.ids = append(a.ids, id)
	if a.sending {
		a.mu.Unlock()
		return
	}
	a.sending = true
	a.mu.Unlock()
	for {
		a.mu.Lock()
		ids := a.ids
		a.ids = nil
		if len(ids) == 0 {
			a.sending = false
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
		_, _ = b.pool.Exec(ctx, `UPDATE `+spendTable+` SET answered_at = clock_timestamp() WHERE id = ANY($1)`, ids)
		cancel()
	}
}
