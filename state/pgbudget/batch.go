package pgbudget

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// A run asks for its requests one at a time, many at once: a plan reads 40
// projects together, an apply creates in every project together. Each ask
// was a statement under the account's lock, so a burst of 40 took 40 turns
// of it, interleaved with the other runs' turns; a route's second then
// filled with some of every run's burst, and every run had a request or two
// left to wait a whole second for. The asks of one route that wait together
// are spent in one statement instead (neonform_rate_spend_many): the first
// ask of a route sends its statement at once, and the asks arriving while a
// statement is out go together in the next one. A run's burst is then taken
// whole, or up to what is left of the window, in one or two turns of the
// lock: the second that cannot hold every run's burst leaves one run
// waiting, not all of them, and the database does a statement where it did
// forty.

// batch is the asks of one route that go in one statement, and its outcome.
type batch struct {
	n     int           // how many asked
	ready chan struct{} // closed once the statement came back
	ids   []int64       // the requests taken: the first len(ids) asks have one
	wait  time.Duration // how long the rest wait
	err   error
}

// spends are a budget's asks waiting for a statement, by route.
type spends struct {
	mu      sync.Mutex
	next    map[string]*batch // the asks to go in the route's next statement
	sending map[string]bool   // a statement of the route is out
}

// Spend takes a request on route out of the account's budget, or says how
// long to wait; done records when its answer came back.
func (b *Budget) Spend(ctx context.Context, route string) (func(), time.Duration, error) {
	s := &b.spends
	s.mu.Lock()
	q := s.next[route]
	if q == nil {
		q = &batch{ready: make(chan struct{})}
		s.next[route] = q
	}
	i := q.n
	q.n++
	if !s.sending[route] {
		s.sending[route] = true
		go b.send(route)
	}
	s.mu.Unlock()
	select {
	case <-q.ready:
	case <-ctx.Done():
		// Its request may be taken all the same: answered at once, it
		// leaves the window a second from now.
		go func() {
			<-q.ready
			if i < len(q.ids) {
				b.answered(q.ids[i])
			}
		}()
		return nil, 0, ctx.Err()
	}
	switch {
	case q.err != nil:
		return nil, 0, q.err
	case i < len(q.ids):
		id := q.ids[i]
		// Recorded aside: the run need not wait for it, and until it is
		// recorded the request counts as unanswered, which errs on the
		// safe side.
		return func() { go b.answered(id) }, 0, nil
	}
	return nil, max(q.wait, time.Microsecond), nil
}

// send spends the route's waiting asks, a statement at a time, until none
// are left.
func (b *Budget) send(route string) {
	s := &b.spends
	for {
		s.mu.Lock()
		q := s.next[route]
		delete(s.next, route)
		if q == nil {
			s.sending[route] = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		q.ids, q.wait, q.err = b.spendMany(route, q.n)
		close(q.ready)
	}
}

// spendMany takes up to n requests on route in one statement: the ids of
// those taken, and how long the rest wait.
func (b *Budget) spendMany(route string, n int) ([]int64, time.Duration, error) {
	// Not an ask's context: the statement serves every ask of the batch.
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	minute, second := b.limits.Windows()
	var ids []int64
	var waitMS float64
	var unspent int32
	b.statements.Add(1)
	err := b.pool.QueryRow(ctx, `SELECT spent_ids, wait_ms, unspent FROM neonform_rate_spend_many($1, $2, $3, $4, $5, $6, $7, $8)`,
		b.account, route, b.perMinute, b.perRoute, minute, second, stale, n).Scan(&ids, &waitMS, &unspent)
	if err != nil {
		return nil, 0, fmt.Errorf("the rate budget's database: %w", err)
	}
	b.unspent.Store(int64(unspent))
	return ids, time.Duration(waitMS * float64(time.Millisecond)), nil
}
