package api_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// Against an emulator that enforces the documented limits (its minute shrunk
// to 6 seconds, a route's second to 100 ms, the client told the same), a
// client sends more than a minute's budget, 40 at once on two routes, without
// a single 429: the ledger keeps both windows.
func TestBudgetProvokesNo429AtTheLimits(t *testing.T) {
	const minute = 6 * time.Second
	s := newService(t, emulator.Options{RatePerMinute: 700, Burst: 40, RateMinute: minute},
		func(o *api.Options) { o.RatePerMinute, o.Burst, o.RateMinute = 0, 0, minute }, nil)
	created, err := s.client.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	p := created.Project.ID
	failed := fanOut(900, 40, func(i int) error {
		if i%2 == 0 {
			_, err := s.client.ListEndpoints(context.Background(), p)
			return err
		}
		_, err := s.client.ListBranches(context.Background(), p)
		return err
	})
	if failed != 0 {
		t.Errorf("%d calls failed", failed)
	}
	if n := s.emu.Stats().Statuses["429"]; n != 0 || s.client.Slowdowns() != 0 {
		t.Errorf("%d answers 429 (%d slowdowns), want none: %v", n, s.client.Slowdowns(), s.emu.Stats().Responses)
	}
	if got := s.responses("GET "+routeEndpoints, 200); got != 450 {
		t.Errorf("%d list-endpoints answered 200, want 450", got)
	}
}

func TestUnpacedClientMeetsTheBurstLimit(t *testing.T) {
	s := newService(t, emulator.Options{RatePerMinute: 700, Burst: 40}, nil, nil)
	created, err := s.client.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	api.RecordSleeps(s.client) // the retries fail too, and need not wait
	fanOut(45, 4, func(int) error {
		_, err := s.client.ListEndpoints(context.Background(), created.Project.ID)
		return err
	})
	if n := s.responses("GET "+routeEndpoints, 429); n == 0 || s.client.Slowdowns() == 0 {
		t.Errorf("%d answers 429 and %d slowdowns: want some, or the test above proves nothing", n, s.client.Slowdowns())
	}
}

// fanOut runs call n times, at most at once at a time, and says how many
// failed.
func fanOut(n, at int, call func(i int) error) int {
	var failed atomic.Int32
	var wg sync.WaitGroup
	sem := make(chan struct{}, at)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if call(i) != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(failed.Load())
}

// fakeLedger is a ledger of the documented limits on a clock that only the
// client's waits move, and a client of stub drawing on it.
func fakeLedger(t *testing.T, stub string, tune func(*api.Options)) (*api.Client, *api.Ledger, func() time.Duration) {
	ledger := api.NewLedger(api.Limits{PerMinute: 700, PerRoute: 40, Minute: time.Minute})
	var mu sync.Mutex
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	api.LedgerClock(ledger, func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	c, _ := newClient(t, stub, func(o *api.Options) {
		o.RatePerMinute, o.Budget = 0, ledger
		if tune != nil {
			tune(o)
		}
	})
	api.SetSleep(c, func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
		return ctx.Err()
	})
	return c, ledger, func() time.Duration { mu.Lock(); defer mu.Unlock(); return now.Sub(start) }
}

// Counted on a fake clock, not timed: 600 requests on one route (less than
// the minute's 700) leave 40 at once, then 40 each time a route's second
// (stretched by api.Slack) has passed: the 600th leaves after 14 of them, not
// trickled at the minute's average of 11.7 a second (51 s).
func TestABurstUnderTheMinuteIsPacedOnlyByTheRoute(t *testing.T) {
	s := newStub(t, answer(200, `{"endpoints":[]}`))
	c, _, elapsed := fakeLedger(t, s.api(), nil)
	for range 600 {
		if _, err := c.ListEndpoints(context.Background(), "p-1"); err != nil {
			t.Fatal(err)
		}
	}
	_, second := api.Limits{Minute: time.Minute}.Windows()
	if got, want := elapsed(), 14*second; got != want {
		t.Errorf("600 requests on one route took %s of the fake clock, want %s (14 route-seconds)", got, want)
	}
	// A second route is not held by the first's second, only by the
	// minute: 100 more would pass it, so the 101st waits for the minute.
	before := elapsed()
	for range 100 {
		if _, err := c.ListBranches(context.Background(), "p-1"); err != nil {
			t.Fatal(err)
		}
	}
	if got := elapsed() - before; got != 2*second {
		t.Errorf("100 requests on another route waited %s, want two of its seconds", got)
	}
	if n := c.Unspent(); n != 0 {
		t.Errorf("after 700 requests in a minute %d unspent, want 0", n)
	}
}

// A 429 pauses every client of the budget for its Retry-After, not only the
// request it refused, and halves the limits for a minute after the pause.
func TestTooManyRequestsPausesEveryClientOfTheBudget(t *testing.T) {
	s := newStub(t,
		answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", "7"),
		answer(200, `{"endpoints":[]}`))
	// The refused request is not retried: its client need not wait, and the
	// shared clock stays within the pause.
	c, ledger, elapsed := fakeLedger(t, s.api(), func(o *api.Options) { o.MaxRetries = -1 })
	other, _ := newClient(t, s.api(), func(o *api.Options) { o.Budget = ledger; o.RatePerMinute = 0 })
	otherSleeps := api.RecordSleeps(other)
	if _, err := c.ListEndpoints(context.Background(), "p-1"); api.StatusOf(err) != http.StatusTooManyRequests {
		t.Fatalf("want the 429, got %v", err)
	}
	if c.Slowdowns() != 1 || ledger.Slowdowns() != 1 || elapsed() != 0 {
		t.Errorf("after a 429: %d slowdowns of the client, %d of the budget, %s waited: want 1, 1, none", c.Slowdowns(), ledger.Slowdowns(), elapsed())
	}
	// The other client's clock did not move: the budget still pauses it
	// (its recorded sleeps take no time, so it asks again and again; the
	// first wait is the pause's rest).
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(otherSleeps()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if _, err := other.ListEndpoints(ctx, "p-2"); err == nil {
		t.Fatal("the other client's request went out during the pause")
	}
	if got := otherSleeps(); got[0] <= 0 || got[0] > 7*time.Second {
		t.Errorf("the other client waited %v, want the rest of the 7s pause", got)
	}
	if s.hits() != 1 {
		t.Errorf("%d requests, want 1 (the refused one)", s.hits())
	}
}

// After 429s the limits halve each time, down to a sixteenth, and stay at
// least a request.
func TestSlowdownHasAFloor(t *testing.T) {
	l := api.Limits{PerMinute: 700, PerRoute: 40, Minute: time.Minute}
	for n, want := range []string{"700/40", "350/20", "175/10", "87/5", "43/2", "43/2", "43/2"} {
		s := l.Slowed(n)
		if got := fmt.Sprintf("%d/%d", s.PerMinute, s.PerRoute); got != want {
			t.Errorf("%d slowdowns: %s, want %s", n, got, want)
		}
	}
	if s := (api.Limits{PerMinute: 2, PerRoute: 1}).Slowed(3); s.PerMinute != 1 || s.PerRoute != 1 {
		t.Errorf("tiny limits slowed: %+v, want one request", s)
	}
}

// A route is its method and path with the ids left out, as the service's
// reference writes its paths.
func TestRouteOfLeavesOutTheIDs(t *testing.T) {
	for path, want := range map[string]string{
		"/projects":                            "GET /projects",
		"/projects/p-1/endpoints":              "GET /projects/{}/endpoints",
		"/projects/p-2/endpoints/ep-1?x=1":     "GET /projects/{}/endpoints/{}",
		"/projects/p-1/operations?limit=50":    "GET /projects/{}/operations",
		"/projects/p-1/endpoints/ep-9/restart": "GET /projects/{}/endpoints/{}/restart",
	} {
		if got := api.RouteOf(http.MethodGet, path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	if api.RouteOf("post", "/projects/p-1/endpoints") == api.RouteOf("GET", "/projects/p-1/endpoints") {
		t.Error("two methods on one path are two routes")
	}
}
