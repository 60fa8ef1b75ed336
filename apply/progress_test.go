package apply

import (
	"bytes"
	"strings"
	"testing"
	"time"

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
	p.end(&StepResult{Step: *slowStep, Elapsed: 1200 * time.Millisecond})
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
	p.end(&StepResult{Step: *slowStep, Elapsed: 1500 * time.Millisecond})
	p.finish()
	s := out.String()
	if n := strings.Count(s, "shop.main.primary: still updating, "); n != 1 || strings.Contains(s, "\x1b") {
		t.Errorf("want one plain 'still' line and no terminal codes, got %d:\n%q", n, s)
	}
}
