package apply

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// An apply of many projects at the service's limits receives no 429: its
// polls and its changes share the client's one pace. Without -parallelism,
// as many projects run at once as keep that pace busy, more than the 4 of
// old. Time runs 20 times faster than the service's for the emulator and
// the client alike (the rate limit's minute, operations of 100 ms), so the
// apply sends its requests at the service's ratio of requests to operation
// time, 1,000 of them in about 5 seconds: a minute and a half of the
// service's budget. (bench/ applies 1,000 projects at the service's own
// timings, and counts its 429s too.)
func TestApplyAtTheServiceLimitsGetsNo429(t *testing.T) {
	const scale = 20
	ids := make([]string, 250)
	for i := range ids {
		ids[i] = fmt.Sprintf("limit-project-%08d", i)
	}
	w := newWorld(t, worldOptions{projects: ids, opDelay: 2 * time.Second / scale, rateMinute: time.Minute / scale})
	p := w.plan(everyPrimaryOfSize(ids, 2))
	if n := p.APICalls(); n != len(ids) {
		t.Fatalf("the plan has %d calls, want a resize in each of %d projects", n, len(ids))
	}

	w.emu.SetRateLimit(api.DefaultRatePerMinute, api.DefaultBurst)
	w.emu.ResetStats()
	paced, err := api.New(api.Options{BaseURL: w.srv.URL + "/api/v2", APIKey: w.emu.APIKey(),
		RateMinute: time.Minute / scale, PollInterval: api.DefaultPollInterval / scale})
	if err != nil {
		t.Fatal(err)
	}
	var inFlight steps
	if _, err := Apply(context.Background(), p, Options{Client: paced, State: w.state, Hooks: []Hook{&inFlight}}); err != nil {
		t.Fatal(err)
	}
	stats := w.emu.Stats()
	if n := stats.Statuses["429"]; n != 0 || paced.Slowdowns() != 0 {
		t.Errorf("%d answers 429 (the client slowed down %d times) in %d requests", n, paced.Slowdowns(), stats.Total)
		t.Logf("%v", stats.Responses)
	}
	if got := inFlight.most(); got <= 4 {
		t.Errorf("at most %d steps ran at once: the budget allows more projects at once than 4", got)
	}
}

// -parallelism caps the projects at once, whatever the budget allows.
func TestParallelismCapsTheProjectsAtOnce(t *testing.T) {
	ids := make([]string, 12)
	for i := range ids {
		ids[i] = fmt.Sprintf("capped-project-%08d", i)
	}
	w := newWorld(t, worldOptions{projects: ids, opDelay: 5 * time.Millisecond})
	p := w.plan(everyPrimaryOfSize(ids, 2))
	var inFlight steps
	if _, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, Parallelism: 3, Hooks: []Hook{&inFlight}}); err != nil {
		t.Fatal(err)
	}
	if got := inFlight.most(); got > 3 || got < 2 {
		t.Errorf("at most %d steps ran at once with -parallelism 3", got)
	}
}

func everyPrimaryOfSize(ids []string, size int) string {
	var src strings.Builder
	for i, id := range ids {
		fmt.Fprintf(&src, "project \"p%d\" {\n  id = %q\n  branch \"main\" {\n    compute \"primary\" { size = %d }\n  }\n}\n", i, id, size)
	}
	return src.String()
}

// steps counts the steps in flight from what an apply tells its hooks.
type steps struct {
	nopHook
	mu       sync.Mutex
	now, max int
}

func (s *steps) StepStarted(*diff.Step, *diff.Change, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now++
	s.max = max(s.max, s.now)
}

func (s *steps) StepEnded(*StepResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now--
}

func (s *steps) most() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.max
}
