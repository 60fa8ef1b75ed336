package apply

import (
	"context"
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

	paced := spentClient(t, 100) // 11.7 requests a second, 100 left of the minute
	b = newBudget(paced, 0)
	b.sent -= 8 // two steps of 4 requests
	b.stepEnded(2 * time.Second)
	b.stepEnded(2 * time.Second)
	want := time.Duration((56*4 - 100) / paced.Rate() * float64(time.Second))
	if got, _ := b.left(1, 56); got != want {
		t.Errorf("56 steps of 4 requests, 100 of them at once and the rest at %.1f a second: %s left, want %s", paced.Rate(), got, want)
	}
}

// Without -parallelism, a paced client runs as many projects at once as
// its pace times a step's time, over a step's requests (twice that: the
// headroom), keep busy, or as what is left of the minute covers; the cap is
// -parallelism.
func TestProjectsAtOnceFollowTheBudget(t *testing.T) {
	paced := spentClient(t, 0) // 11.7 requests a second, the minute spent
	b := newBudget(paced, 0)
	// Nothing learned: an operation of a second (the client's guess), 2
	// requests a step (the mutation, a poll): ceil(2 * 11.7 * 1 / 2).
	if got := b.parallel(); got != 12 {
		t.Errorf("before any step: %d projects at once, want 12", got)
	}
	b.sent -= 6 // two steps of 3 requests, 4s each
	b.stepEnded(4 * time.Second)
	b.stepEnded(4 * time.Second)
	if got := b.parallel(); got != 32 {
		t.Errorf("steps of 4s and 3 requests: %d projects at once, want ceil(2 * 11.7 * 4 / 3) = 32", got)
	}
	if got := newBudget(spentClient(t, 150), 0).parallel(); got != maxAutoParallelism {
		t.Errorf("150 requests left of the minute, 2 a step: %d projects at once, want them all (the cap, %d)", got, maxAutoParallelism)
	}
	b.limit = 7
	if got := b.parallel(); got != 7 {
		t.Errorf("-parallelism 7: %d projects at once", got)
	}
	if got := newBudget(mustClient(t, -1), 0).parallel(); got != maxAutoParallelism {
		t.Errorf("an unpaced client: %d projects at once, want %d", got, maxAutoParallelism)
	}
}

// spentBudget is a budget with unspent requests left of its minute.
type spentBudget struct{ unspent int }

func (b spentBudget) Spend(context.Context, string) (func(), time.Duration, error) {
	return func() {}, 0, nil
}
func (spentBudget) Throttled(context.Context, string, time.Duration) error { return nil }
func (b spentBudget) Unspent() int                                         { return b.unspent }

// spentClient is a client at the documented limits whose budget has unspent
// requests left of the minute.
func spentClient(t *testing.T, unspent int) *api.Client {
	c, err := api.New(api.Options{BaseURL: "http://127.0.0.1:1/api/v2", APIKey: "napi_test", Budget: spentBudget{unspent}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustClient(t *testing.T, perMinute int) *api.Client {
	c, err := api.New(api.Options{BaseURL: "http://127.0.0.1:1/api/v2", APIKey: "napi_test", RatePerMinute: perMinute})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
