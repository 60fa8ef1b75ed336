package api_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// told collects the long waits a client tells of (Options.OnWait).
type told struct {
	mu    sync.Mutex
	waits []api.Wait
}

func (w *told) add(x api.Wait) {
	w.mu.Lock()
	w.waits = append(w.waits, x)
	w.mu.Unlock()
}

func (w *told) list() []api.Wait {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]api.Wait(nil), w.waits...)
}

// A service that asks for a day (Retry-After: 86400) is waited a minute at
// most, and each of those waits is told as it begins, saying what for.
func TestRetryAfterOfADayIsWaitedAMinuteAndTold(t *testing.T) {
	var notes told
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.MaxRetries = 2; o.OnWait = notes.add }, nil)
	c := s.client
	sleeps := api.RecordSleeps(c)
	s.emu.SetFaults(must2(emulator.ParseFaults("429=1:24h")))
	_, err := c.ListProjects(context.Background())
	if api.StatusOf(err) != 429 {
		t.Fatalf("want the 429 after the retries, got %v", err)
	}
	got := sleeps()
	if len(got) != 2 {
		t.Fatalf("waits %v: want one before each of the 2 retries", got)
	}
	for _, d := range got {
		if d > time.Minute || d < 50*time.Second {
			t.Errorf("waits %v: want about a minute each (Retry-After capped), not a day, not a backoff", got)
		}
	}
	n := notes.list()
	if len(n) != 2 {
		t.Fatalf("told of %d waits, want 2: %+v", len(n), n)
	}
	if want := "to send GET /projects?limit=400 again after 429 Too Many Requests (Retry-After 1m0s)"; n[0].What != want || n[0].For != got[0] {
		t.Errorf("told %+v, want %q for %s", n[0], want, got[0])
	}
}

// The waits of a run add up to WaitTimeout at most: the wait that would pass
// it is not begun, and the call fails saying what it would have waited for,
// with the service's last answer.
func TestWaitsStopAtTheWaitTimeout(t *testing.T) {
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.MaxRetries = 10; o.WaitTimeout = 150 * time.Second }, nil)
	c := s.client
	sleeps := api.RecordSleeps(c)
	s.emu.SetFaults(must2(emulator.ParseFaults("429=1:24h")))
	_, err := c.ListProjects(context.Background())
	var gaveUp *api.WaitTimeoutError
	if !errors.As(err, &gaveUp) {
		t.Fatalf("want a *WaitTimeoutError, got %v", err)
	}
	if api.StatusOf(err) != 429 {
		t.Errorf("the error does not carry the service's last answer: %v", err)
	}
	if got := sleeps(); len(got) != 2 {
		t.Errorf("waits %v: want 2 of a minute, then none (a third would pass 150s)", got)
	}
	if n := s.emu.Stats().Faults["429"]; n != 3 {
		t.Errorf("the emulator answered %d requests, want 3", n)
	}
	msg := err.Error()
	for _, want := range []string{"gave up waiting 1m0s to send GET /projects?limit=400 again after 429 Too Many Requests", "already waited 2m0s",
		"-wait-timeout", "429 Too Many Requests: too many requests"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
}

// Waiting for a project's operations counts too: operations that never
// finish (time stands still) end the wait at WaitTimeout, before the
// operation timeout, naming the operation.
func TestWaitingForOperationsStopsAtTheWaitTimeout(t *testing.T) {
	clock := emulator.NewFakeClock(epoch)
	s := newService(t, emulator.Options{Clock: clock, OpDelay: time.Hour},
		func(o *api.Options) { o.PollInterval = time.Second; o.WaitTimeout = 10 * time.Second }, nil)
	c, ctx := s.client, context.Background()
	api.RecordSleeps(c) // the fake clock does not move: the operations run on
	created, err := c.CreateProject(ctx, api.ProjectCreate{Name: "p"})
	must(t, err)
	err = c.WaitProjectIdle(ctx, created.Project.ID)
	var gaveUp *api.WaitTimeoutError
	if !errors.As(err, &gaveUp) {
		t.Fatalf("want a *WaitTimeoutError, got %v", err)
	}
	if gaveUp.Waited > 10*time.Second || gaveUp.Waited+gaveUp.For <= 10*time.Second ||
		!strings.Contains(err.Error(), "for operation ") || !strings.Contains(err.Error(), "to finish") {
		t.Errorf("want a give-up at the first wait that would pass 10s, naming the operation: %v", err)
	}
}
