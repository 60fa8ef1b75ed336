package views

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
)

var slowStep = &diff.Step{ID: 1, Address: "shop.main.primary", Kind: diff.StepUpdate, EndpointID: "ep-x"}

// The ticker is not started (begin): the tests call tick themselves.

func TestLiveProgressKeepsAStatusLineBelowTheLog(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, time.Hour, 3)
	p.start(slowStep, &diff.Change{Disruption: diff.Restart, Active: true}, false)
	p.tick()
	p.tick()
	p.end(&apply.StepResult{Step: *slowStep, Elapsed: 1200 * time.Millisecond})
	p.finish()
	s := out.String()
	for _, want := range []string{
		"shop.main.primary: updating ep-x (restart: active at plan time, its connections drop)...\n[0/3 done] shop.main.primary updating ",
		"\r\x1b[K[0/3 done] shop.main.primary updating ",
		"\r\x1b[Kshop.main.primary: updated ep-x after 1.2s\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%q", want, s)
		}
	}
	if n := strings.Count(s, "[0/3 done]"); n != 3 {
		t.Errorf("the status line was drawn %d times, want 3 (after the start line, then at each tick):\n%q", n, s)
	}
	if !strings.HasSuffix(s, "after 1.2s\n") {
		t.Errorf("the status line must be gone at the end:\n%q", s)
	}
}

func TestLogProgressSaysStillWhenAStepWaitsLong(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, 10*time.Millisecond, 1)
	p.start(slowStep, nil, false)
	p.tick() // too early: nothing
	time.Sleep(25 * time.Millisecond)
	p.tick()
	p.tick() // the next one is due 10ms later
	p.end(&apply.StepResult{Step: *slowStep, Elapsed: 1500 * time.Millisecond})
	p.finish()
	s := out.String()
	if n := strings.Count(s, "shop.main.primary: still updating, "); n != 1 || strings.Contains(s, "\x1b") {
		t.Errorf("want one plain 'still' line and no terminal codes, got %d:\n%q", n, s)
	}
}

// On a terminal the status line says how long the rest is expected to take,
// once the run has learned enough to say.
func TestLiveStatusLineSaysTheTimeLeft(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, time.Hour, 3)
	known := false
	p.timeLeft = func() (time.Duration, bool) { return 95 * time.Second, known }
	p.start(slowStep, &diff.Change{}, false)
	known = true
	p.tick()
	p.finish()
	s := out.String()
	if !strings.Contains(s, "...\n[0/3 done] shop.main.primary updating ") {
		t.Errorf("before anything is learned, the status line says no time left:\n%q", s)
	}
	if !strings.Contains(s, "\r\x1b[K[0/3 done, about 1m40s left] shop.main.primary updating ") {
		t.Errorf("the status line does not say the time left:\n%q", s)
	}
}

func TestTimeLeftIsSaidRounded(t *testing.T) {
	for d, want := range map[time.Duration]string{
		400 * time.Millisecond:   "1s",
		42400 * time.Millisecond: "42s",
		95 * time.Second:         "1m40s",
		120 * time.Second:        "2m",
		754 * time.Second:        "13m",
		3725 * time.Second:       "1h2m",
	} {
		if got := formatLeft(d); got != want {
			t.Errorf("%s is said %q, want %q", d, got, want)
		}
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

// In a log, a wait for others' operations says so again every StillEvery:
// it is never silent while it waits.
func TestLogProgressSaysStillWhileItWaitsForOthers(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, 10*time.Millisecond, 1)
	p.PlanChecked(&diff.Plan{Projects: []diff.Project{{ID: "p-1", Label: "shop"}}})
	p.OthersRunning("p-1", 1)
	p.tick() // too early: nothing
	time.Sleep(25 * time.Millisecond)
	p.tick()
	p.OthersDone("p-1")
	p.Finished(nil, nil)
	s := out.String()
	for _, want := range []string{
		"waiting for 1 operation on project shop started outside this run...\n",
		"waiting for 1 operation on project shop started outside this run: ",
		"the operations on project shop started outside this run are over after ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%q", want, s)
		}
	}
}
