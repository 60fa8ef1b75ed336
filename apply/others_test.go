package apply

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/emulator"
)

// syncBuffer is a bytes.Buffer that an apply writes to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until out says want; an apply that ends (done) without
// saying it fails the test.
func waitFor(t *testing.T, out *syncBuffer, done <-chan error, want string) {
	t.Helper()
	for !strings.Contains(out.String(), want) {
		select {
		case err := <-done:
			t.Fatalf("apply ended (%v) without saying %q:\n%s", err, want, out.String())
		case <-time.After(time.Millisecond):
		}
	}
}

// An apply that must wait for operations it did not start (a compute woken
// in the console) says what it waits for, at once and then every StillEvery
// in a log, and when the wait is over; it is never silent while it waits.
// The operation runs on the emulator's fake clock, so it lasts until the
// test moves the clock: the wait is as long as the test needs.
func TestApplySaysItWaitsForOperationsItDidNotStart(t *testing.T) {
	clock := emulator.NewFakeClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	w := newWorld(t, worldOptions{projects: []string{shop}, opDelay: time.Minute, clock: clock})
	clock.Advance(time.Hour) // the project's own operations are over; its primary has scaled to zero
	p := w.plan(oneReplicaNamed)
	primary := w.endpoints(shop)[0].ID
	if _, err := w.c.StartEndpoint(context.Background(), shop, primary); err != nil { // someone wakes it: start_compute runs for a minute
		t.Fatal(err)
	}

	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, Progress: out, StillEvery: 5 * time.Millisecond})
		done <- err
	}()
	waitFor(t, out, done, "waiting for 1 operation on project shop started outside this run...\n")
	waitFor(t, out, done, "waiting for 1 operation on project shop started outside this run: ")
	if strings.Contains(out.String(), "shop.main.") {
		t.Fatalf("a step started while the project's operations ran:\n%s", out.String())
	}
	// The wait ends; apply's own steps then run on the same clock.
	var err error
	for running := true; running; {
		clock.Advance(time.Minute)
		select {
		case err = <-done:
			running = false
		case <-time.After(time.Millisecond):
		}
	}
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	s := out.String()
	over := strings.Index(s, "the operations on project shop started outside this run are over after ")
	first := strings.Index(s, "shop.main.")
	if over < 0 || first < over {
		t.Errorf("the end of the wait is not said before the first step:\n%s", s)
	}
}

// On a terminal the wait is in the status line, with how long it has lasted.
func TestLiveStatusLineShowsTheWaitForOthers(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, time.Hour, 2)
	p.othersRunning("dark-sun-46453911", "shop", 2)
	p.tick()
	p.othersDone("dark-sun-46453911")
	p.finish()
	s := out.String()
	for _, want := range []string{
		"waiting for 2 operations on project shop started outside this run...\n",
		"\r\x1b[K[0/2 done] waiting for 2 operations on project shop started outside this run: ",
		"\r\x1b[Kthe operations on project shop started outside this run are over after ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%q", want, s)
		}
	}
}
