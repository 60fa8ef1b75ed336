package apply

import (
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

// The time left is the longest of: the longest project's steps one after
// another, all steps as many projects at once as run, and their requests at
// the client's pace; each step as long, and as many requests, as the run's
// steps so far.
func TestTimeLeftFollowsTheStepsOfTheRun(t *testing.T) {
	unpaced := mustClient(t, -1)
	b := newBudget(unpaced, 2)
	if _, ok := b.left(3, 5); ok {
		t.Error("a time left before any step ended")
	}
	b.stepEnded(1 * time.Second)
	b.stepEnded(3 * time.Second)
	if got, _ := b.left(3, 5); got != 6*time.Second {
		t.Errorf("3 steps of 2s in one project: %s left, want 6s", got)
	}
	if got, _ := b.left(1, 5); got != 5*time.Second {
		t.Errorf("5 steps of 2s, 2 projects at once: %s left, want 5s", got)
	}

	paced := mustClient(t, 0) // 11.2 requests a second
	b = newBudget(paced, 0)
	b.sent -= 8 // two steps of 4 requests
	b.stepEnded(2 * time.Second)
	b.stepEnded(2 * time.Second)
	if got, _ := b.left(1, 56); got != 20*time.Second {
		t.Errorf("56 steps of 4 requests at 11.2 a second: %s left, want 20s", got)
	}
}

// Without -parallelism, a paced client runs as many projects at once as
// its pace times a step's time, over a step's requests (twice that: the
// headroom), keep busy; the cap is -parallelism.
func TestProjectsAtOnceFollowTheBudget(t *testing.T) {
	paced := mustClient(t, 0) // 11.2 requests a second
	b := newBudget(paced, 0)
	// Nothing learned: an operation of a second (the client's guess), 2
	// requests a step (the mutation, a poll): ceil(2 * 11.2 * 1 / 2).
	if got := b.parallel(); got != 12 {
		t.Errorf("before any step: %d projects at once, want 12", got)
	}
	b.sent -= 6 // two steps of 3 requests, 4s each
	b.stepEnded(4 * time.Second)
	b.stepEnded(4 * time.Second)
	if got := b.parallel(); got != 30 {
		t.Errorf("steps of 4s and 3 requests: %d projects at once, want ceil(2 * 11.2 * 4 / 3) = 30", got)
	}
	b.limit = 7
	if got := b.parallel(); got != 7 {
		t.Errorf("-parallelism 7: %d projects at once", got)
	}
	if got := newBudget(mustClient(t, -1), 0).parallel(); got != maxAutoParallelism {
		t.Errorf("an unpaced client: %d projects at once, want %d", got, maxAutoParallelism)
	}
}

func mustClient(t *testing.T, perMinute int) *api.Client {
	c, err := api.New(api.Options{BaseURL: "http://127.0.0.1:1/api/v2", APIKey: "napi_test", RatePerMinute: perMinute})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
