package apply

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/neonform/neonform/api"
)

// How many projects change at once. Every request of an apply comes out of
// the account's budget (docs/limits.md, "Requests are paced"), and a project
// spends its requests while its operations run: a mutation, a poll when they
// should be over. So enough projects run at once to keep the budget busy
// while their operations run, and no more, since more would only queue for
// the pace: as many as the paced rate times a step's time, divided by a
// step's requests, learned from the steps of this run (before the first
// ends, from the operations the client has read); or, when more, as many as
// what is left of the account's minute covers, which the budget lets out at
// once. -parallelism caps it; an
// unpaced client (the sandbox, an emulator without limits) runs as many as
// the cap allows.

// maxAutoParallelism caps the projects at once when -parallelism is not
// given: the connections the client keeps open (internal/command).
const maxAutoParallelism = 64

// guessRequestsPerStep is what a step is expected to cost before one ended:
// the mutation, one poll.
const guessRequestsPerStep = 2

// headroom: twice enough projects. With just enough (a quarter more), where
// the rate decides, polls and mutations shared the pace as they came, so the
// last projects' mutations left near the end and their operations ran past
// it: 1.26 times the least the limits allow at 100 projects. With twice as
// many started, the mutations are out early and the polls fill the pace
// (1.11 times; docs/PERFORMANCE.md, "Applying"); a project waiting for the
// pace costs nothing meanwhile.
const headroom = 2.0

// budget is what the run learned of its steps: how long one takes and how
// many requests it costs.
type budget struct {
	c     *api.Client
	limit int // -parallelism, or maxAutoParallelism
	sent  int64

	mu    sync.Mutex
	steps int           // steps that called the service and ended
	took  time.Duration // their time, all added up

	// The projects running, and a channel closed (and replaced) whenever
	// one ends or a step ends, for a project waiting its turn.
	running int
	wake    chan struct{}
}

func newBudget(c *api.Client, limit int) *budget {
	if limit <= 0 {
		limit = maxAutoParallelism
	}
	return &budget{c: c, limit: limit, sent: c.Requests(), wake: make(chan struct{})}
}

// stepEnded learns from a step that called the service.
func (b *budget) stepEnded(took time.Duration) {
	b.mu.Lock()
	b.steps++
	b.took += took
	b.wakeUp()
	b.mu.Unlock()
}

// wakeUp tells waiting projects to look again. Caller holds b.mu.
func (b *budget) wakeUp() {
	close(b.wake)
	b.wake = make(chan struct{})
}

// learned is a step's time and requests as the run's steps so far say, or
// as expected before one ended. Caller holds b.mu.
func (b *budget) learned() (step time.Duration, requests float64, known bool) {
	if b.steps == 0 {
		return b.c.ExpectedDuration(""), guessRequestsPerStep, false
	}
	return b.took / time.Duration(b.steps), float64(b.c.Requests()-b.sent) / float64(b.steps), true
}

// parallel is how many projects run at once now. Caller holds b.mu.
func (b *budget) parallel() int {
	rate := b.c.Rate()
	if rate == 0 {
		return b.limit
	}
	step, requests, _ := b.learned()
	n := int(math.Ceil(headroom * rate * step.Seconds() / max(requests, 1)))
	// What is left of the account's minute goes out at once (api/budget.go):
	// as many projects as its requests cover start together.
	n = max(n, int(float64(b.c.Unspent())/max(requests, 1)))
	return min(max(n, 1), b.limit)
}

// recheck is how often a project waiting its turn looks again: the client
// learns how long operations take from every page of them it reads, which
// wakes nobody.
const recheck = 100 * time.Millisecond

// begin waits for a project's turn; false when ctx ended first.
func (b *budget) begin(ctx context.Context) bool {
	t := time.NewTicker(recheck)
	defer t.Stop()
	for {
		b.mu.Lock()
		if b.running < b.parallel() {
			b.running++
			b.mu.Unlock()
			return true
		}
		wake := b.wake
		b.mu.Unlock()
		select {
		case <-wake:
		case <-t.C:
		case <-ctx.Done():
			return false
		}
	}
}

// learnt tells waiting projects to look again once the run's read of
// operations returned: a step's expected time may have changed.
func (b *budget) learnt() {
	b.mu.Lock()
	b.wakeUp()
	b.mu.Unlock()
}

// end ends a project's turn.
func (b *budget) end() {
	b.mu.Lock()
	b.running--
	b.wakeUp()
	b.mu.Unlock()
}

// left is how long the steps not yet ended are expected to take: the longest
// project's, one after another; all of them, as many projects at once as
// run; and their requests at the client's pace, whichever is longest. ok is
// false until a step ended: before, there is nothing learned to go by.
func (b *budget) left(longest, steps int) (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	step, requests, known := b.learned()
	if !known {
		return 0, false
	}
	d := time.Duration(longest) * step
	d = max(d, time.Duration(float64(steps)/float64(b.parallel())*float64(step)))
	if rate := b.c.Rate(); rate > 0 {
		// What the minute has left goes at once; the rest at the rate.
		paced := max(float64(steps)*requests-float64(b.c.Unspent()), 0)
		d = max(d, time.Duration(paced/rate*float64(time.Second)))
	}
	return d, true
}
