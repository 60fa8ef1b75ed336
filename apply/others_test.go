package apply

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// waitFor waits until out says want; an apply that ends (done) without
// saying it fails the test, and so does one still silent after a minute
// (it waits on a fake clock only the test moves, so it would hang).
func waitFor(t *testing.T, out *logHook, done <-chan error, want string) {
	t.Helper()
	giveUp := time.After(time.Minute)
	for !strings.Contains(out.String(), want) {
		select {
		case err := <-done:
			t.Fatalf("apply ended (%v) without saying %q:\n%s", err, want, out.String())
		case <-giveUp:
			t.Fatalf("apply has not said %q after a minute:\n%s", want, out.String())
		case <-time.After(time.Millisecond):
		}
	}
}

// applyOnClock applies p while it moves the emulator's fake clock a minute
// at a time (so the operations of the test's own steps end too), and
// returns how the apply ended.
func applyOnClock(t *testing.T, done <-chan error, clock *emulator.FakeClock) error {
	t.Helper()
	for {
		clock.Advance(time.Minute)
		select {
		case err := <-done:
			return err
		case <-time.After(time.Millisecond):
		}
	}
}

// booksFirst is oneReplicaNamed and a project whose primary it names, whose
// steps come first (its id sorts first): the run reads books'
// operations to learn how long operations take (run.learn), not shop's.
var booksFirst = `
project "books" {
  id = "aged-fog-11112222"
  branch "main" {
    compute "primary" { name = "primary" }
  }
}
` + oneReplicaNamed

const books = "aged-fog-11112222"

// An apply that meets operations it did not start (a compute woken in the
// console: nothing in the endpoints list shows it) is refused 423 by the
// service; the client waits until they are over, and apply tells its hooks
// what it waits for when the wait starts and when it is over, before the
// step that waited ends (the views say it, and keep saying it while it
// lasts: internal/command/views). The operation runs on the
// emulator's fake clock, so it lasts until the test moves the clock: the
// wait is as long as the test needs.
func TestApplySaysItWaitsForOperationsItDidNotStart(t *testing.T) {
	clock := emulator.NewFakeClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	w := newWorld(t, worldOptions{projects: []string{books, shop}, opDelay: time.Minute, clock: clock})
	clock.Advance(time.Hour) // the projects' own operations are over; their primaries have scaled to zero
	p := w.plan(booksFirst)
	primary := w.endpoints(shop)[0].ID
	if _, err := w.c.StartEndpoint(context.Background(), shop, primary); err != nil { // someone wakes it: start_compute runs for a minute
		t.Fatal(err)
	}

	out := &logHook{b: &bytes.Buffer{}}
	done := make(chan error, 1)
	go func() {
		_, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, Hooks: []Hook{out}})
		done <- err
	}()
	waitFor(t, out, done, "others "+shop+" 1\n")
	if strings.Contains(out.String(), "ended shop.main.reports") {
		t.Fatalf("a step ended while the project's operations ran:\n%s", out.String())
	}
	// The wait ends; apply's own steps then run on the same clock.
	if err := applyOnClock(t, done, clock); err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	s := out.String()
	over := strings.Index(s, "others done "+shop+"\n")
	created := strings.Index(s, "ended shop.main.reports create")
	if over < 0 || created < over {
		t.Errorf("the end of the wait is not said before the step that waited ends:\n%s", s)
	}
	if n := w.emu.Stats().Statuses["423"]; n != 1 {
		t.Errorf("%d answers 423, want 1: the client waits until the project is idle before it sends again", n)
	}
}

// A project whose endpoints show operations running (a compute someone is
// creating: current_state init) is waited for before its first change: the
// service is not sent a change it would refuse, and apply says what it
// waits for.
func TestApplyWaitsBeforeAProjectThatShowsOperationsRunning(t *testing.T) {
	clock := emulator.NewFakeClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	w := newWorld(t, worldOptions{projects: []string{books, shop}, opDelay: time.Minute, clock: clock})
	clock.Advance(time.Hour)
	branches, err := w.c.ListBranches(context.Background(), shop)
	if err != nil {
		t.Fatal(err)
	}
	var dev string
	for _, b := range branches {
		if b.Name == "dev" {
			dev = b.ID
		}
	}
	// Someone creates a compute on dev: its start_compute runs for a minute.
	if _, err := w.c.CreateEndpoint(context.Background(), shop, api.EndpointCreate{BranchID: dev, Type: api.EndpointTypeReadWrite}); err != nil {
		t.Fatal(err)
	}
	p := w.plan(booksFirst)
	w.emu.ResetStats()
	out := &logHook{b: &bytes.Buffer{}}
	done := make(chan error, 1)
	go func() {
		_, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, Hooks: []Hook{out}})
		done <- err
	}()
	waitFor(t, out, done, "others "+shop+" 1\n")
	if strings.Contains(out.String(), "started shop.main.reports") {
		t.Fatalf("a step started while the project's operations ran:\n%s", out.String())
	}
	if err := applyOnClock(t, done, clock); err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if n := w.emu.Stats().Statuses["423"]; n != 0 {
		t.Errorf("apply provoked %d answers 423 instead of waiting for the operations its read showed", n)
	}
}
