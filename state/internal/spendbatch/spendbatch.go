// Package spendbatch gathers a run's asks of one route into one spend of a
// shared rate budget (api.Budget), for state/pgbudget and state/filebudget.
//
// A run asks for its requests one at a time, many at once: a plan reads 40
// projects together, an apply creates in every project together. Each ask
// was a turn of the account's lock (a statement in the database, a flock of
// the file), so a burst of 40 took 40 turns, interleaved with the other
// runs' turns; a route's second then filled with some of every run's burst,
// and every run had a request or two left to wait a whole second for. The
// asks of one route that wait together are spent in one turn instead: the
// first ask of a route is sent at once, and the asks arriving while a spend
// is out go together in the next one. A run's burst is then taken whole, or
// up to what is left of the window, in one or two turns of the lock: the
// second that cannot hold every run's burst leaves one run waiting, not all
// of them, and the lock is taken once where it was taken forty times.
package spendbatch

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// SpendMany takes up to n requests on route out of the budget in one turn
// of its lock, as many as its windows have room for: ids names those taken
// (the first len(ids) asks of the batch have one each), and wait is how long
// the rest wait.
type SpendMany func(route string, n int) (ids []int64, wait time.Duration, err error)

// Asks are a budget's asks waiting for a spend, by route. Safe for
// concurrent use.
type Asks struct {
	spendMany SpendMany
	answered  func(id int64)

	mu      sync.Mutex
	next    map[string]*batch // the asks to go in the route's next spend
	sending map[string]bool   // a spend of the route is out
	spends  atomic.Int64      // spends sent, for tests
}

// batch is the asks of one route that go in one spend, and its outcome.
type batch struct {
	n     int           // how many asked
	ready chan struct{} // closed once the spend came back
	ids   []int64       // the requests taken: the first len(ids) asks have one
	wait  time.Duration // how long the rest wait
	err   error
}

// New gathers asks for spendMany; answered records that request id's
// answer came back (once for each id taken, whether the ask that got it
// still waited or not).
func New(spendMany SpendMany, answered func(id int64)) *Asks {
	return &Asks{spendMany: spendMany, answered: answered, next: map[string]*batch{}, sending: map[string]bool{}}
}

// Spend takes a request on route out of the budget, with the other asks of
// the route waiting, or says how long to wait (api.Budget.Spend).
func (a *Asks) Spend(ctx context.Context, route string) (func(), time.Duration, error) {
	a.mu.Lock()
	q := a.next[route]
	if q == nil {
		q = &batch{ready: make(chan struct{})}
		a.next[route] = q
	}
	i := q.n
	q.n++
	if !a.sending[route] {
		a.sending[route] = true
		go a.send(route)
	}
	a.mu.Unlock()
	select {
	case <-q.ready:
	case <-ctx.Done():
		// Its request may be taken all the same: answered at once, it
		// leaves the windows soonest.
		go func() {
			<-q.ready
			if i < len(q.ids) {
				a.answered(q.ids[i])
			}
		}()
		return nil, 0, ctx.Err()
	}
	switch {
	case q.err != nil:
		return nil, 0, q.err
	case i < len(q.ids):
		id := q.ids[i]
		var once sync.Once
		return func() { once.Do(func() { a.answered(id) }) }, 0, nil
	}
	return nil, max(q.wait, time.Microsecond), nil
}

// send spends the route's waiting asks, a batch at a time, until none are
// left.
func (a *Asks) send(route string) {
	for {
		// The asks of a burst come from goroutines that were let go
		// together; those not yet run would miss a spend as quick as a
		// file's (a turn of its lock is tens of microseconds) and go one
		// at a time, interleaved with the other runs'. They run first.
		runtime.Gosched()
		a.mu.Lock()
		q := a.next[route]
		delete(a.next, route)
		if q == nil {
			a.sending[route] = false
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
		a.spends.Add(1)
		q.ids, q.wait, q.err = a.spendMany(route, q.n)
		close(q.ready)
	}
}

// Spends is how many spends were sent.
func (a *Asks) Spends() int64 { return a.spends.Load() }

// Queued is how many asks of route wait for the route's next spend.
func (a *Asks) Queued(route string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if q := a.next[route]; q != nil {
		return q.n
	}
	return 0
}
