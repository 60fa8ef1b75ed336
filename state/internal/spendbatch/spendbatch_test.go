package spendbatch_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/state/internal/spendbatch"
)

// fake is a budget's spend-many that holds each spend until let go, and
// takes up to room requests a spend.
type fake struct {
	mu       sync.Mutex
	room     int
	next     int64
	asked    []int
	gate     chan struct{}
	answered chan int64
}

func newFake(room int) *fake {
	return &fake{room: room, gate: make(chan struct{}), answered: make(chan int64, 100)}
}

func (f *fake) spendMany(route string, n int) ([]int64, time.Duration, error) {
	<-f.gate
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, n)
	var ids []int64
	for len(ids) < min(n, f.room) {
		f.next++
		ids = append(ids, f.next)
	}
	f.room -= len(ids)
	return ids, 250 * time.Millisecond, nil
}

// The asks of a route that come while its spend is out go together in the
// next: asked one and then five while the first waited, they go in two
// spends (1, then 5), the room is shared out in order, the rest are told
// the wait, and each taken request is answered once, however often its done
// is called.
func TestAsksWaitingTogetherGoInOneSpend(t *testing.T) {
	f := newFake(4)
	asks := spendbatch.New(f.spendMany, func(id int64) { f.answered <- id })
	type result struct {
		done func()
		wait time.Duration
		err  error
	}
	results := make(chan result, 6)
	ask := func() {
		go func() {
			done, wait, err := asks.Spend(context.Background(), "GET /a")
			results <- result{done, wait, err}
		}()
	}
	ask()
	until(t, func() bool { return asks.Spends() == 1 })
	for range 5 {
		ask()
	}
	until(t, func() bool { return asks.Queued("GET /a") == 5 })
	close(f.gate)
	taken, waits := 0, 0
	for range 6 {
		r := <-results
		switch {
		case r.err != nil:
			t.Fatal(r.err)
		case r.done != nil:
			taken++
			r.done()
			r.done()
		case r.wait == 250*time.Millisecond:
			waits++
		default:
			t.Errorf("an ask left out waits %s, want the spend's 250ms", r.wait)
		}
	}
	if taken != 4 || waits != 2 || asks.Spends() != 2 || len(f.asked) != 2 || f.asked[0] != 1 || f.asked[1] != 5 {
		t.Errorf("%d taken, %d told to wait, spends of %v; want 4, 2, [1 5]", taken, waits, f.asked)
	}
	// done answers at once, so every answer is in by now.
	seen := map[int64]int{}
	for len(f.answered) > 0 {
		seen[<-f.answered]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("request %d answered %d times", id, n)
		}
	}
	if len(seen) != 4 {
		t.Errorf("answered %v, want each of the 4 taken once", seen)
	}
}

// An ask that gave up while its spend was out may be given a request all
// the same: it is answered at once, so that it leaves the windows.
func TestAGivenUpAskIsAnswered(t *testing.T) {
	f := newFake(1)
	asks := spendbatch.New(f.spendMany, func(id int64) { f.answered <- id })
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, _, err := asks.Spend(ctx, "GET /a")
		errs <- err
	}()
	until(t, func() bool { return asks.Spends() == 1 })
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("a given-up ask: %v, want its context's error", err)
	}
	close(f.gate)
	if id := <-f.answered; id != 1 {
		t.Errorf("answered %d, want the request taken for the given-up ask (1)", id)
	}
}

// until waits for cond, which the code under test makes true soon.
func until(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("still not so after a minute")
		}
	}
}
