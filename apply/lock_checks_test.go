package apply

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// Projects that ask while a check of the lock runs never take its answer
// (it began before they asked: the lock may have been removed since), and
// all of them share the one check that begins next.
func TestLockChecksAreSharedByThoseWhoAskAtOnce(t *testing.T) {
	c := newLockChecks()
	lost := errors.New("the lock was removed")
	release := make(chan struct{})
	begun := make(chan struct{})
	var checks atomic.Int32
	check := func() error {
		if checks.Add(1) == 1 {
			close(begun)
			<-release
			return lost
		}
		return nil
	}
	first := make(chan error, 1)
	go func() { first <- c.check(check) }()
	<-begun
	const n = 5
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = c.check(check) })
	}
	for {
		c.mu.Lock()
		w := c.waiting
		c.mu.Unlock()
		if w == n {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if err := <-first; !errors.Is(err, lost) {
		t.Errorf("the first check's caller got %v, want its own check's answer", err)
	}
	for i, err := range errs {
		if err != nil {
			t.Errorf("caller %d, who asked while the first check ran, got %v: the answer of a check that began before it asked", i, err)
		}
	}
	if got := checks.Load(); got != 2 {
		t.Errorf("%d checks, want 2: the first, and one for the %d who asked while it ran", got, n)
	}
}
