// Package budgettest is the contract of a shared rate budget (api.Budget),
// checked against an emulator at the service's limits with its minute shrunk:
// the runs that share one budget, each with its own handle of it as separate
// processes would have, meet no 429 together and keep within the minute, and
// a 429 one meets pauses the others; and, counted without a clock, an unused
// minute is spent at once and two runs' bursts that overflow a route's
// second leave one whole (bursts.go). state/pgbudget and state/filebudget
// run it on theirs. Tests only.
package budgettest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// Minute is the service's minute in these checks.
const Minute = 6 * time.Second

// Open is another run's handle of the one budget under test, at limits.
type Open func(t *testing.T, limits api.Limits) api.Budget

// arrivals records when each request reached the service, and its route.
type arrivals struct {
	mu     sync.Mutex
	times  []time.Time
	routes []string
}

func (a *arrivals) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.times = append(a.times, time.Now())
		a.routes = append(a.routes, api.RouteOf(r.Method, strings.TrimPrefix(r.URL.Path, "/api/v2")))
		a.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// most is the most requests on route (all: "") that arrived within any span.
func (a *arrivals) most(route string, span time.Duration) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	var times []time.Time
	for i, t := range a.times {
		if route == "" || a.routes[i] == route {
			times = append(times, t)
		}
	}
	slices.SortFunc(times, func(x, y time.Time) int { return x.Compare(y) })
	most, j := 0, 0
	for i := range times {
		for times[i].Sub(times[j]) >= span {
			j++
		}
		most = max(most, i-j+1)
	}
	return most
}

// service is an emulator at the documented limits, its minute shrunk to
// Minute, and the arrivals of its requests.
func service(t *testing.T) (*emulator.Emulator, string, *arrivals) {
	emu, err := emulator.New(emulator.Options{APIKey: "napi_budget_test", RatePerMinute: 700, Burst: 40, RateMinute: Minute})
	if err != nil {
		t.Fatal(err)
	}
	seen := &arrivals{}
	srv := httptest.NewServer(seen.wrap(emu.Handler()))
	t.Cleanup(srv.Close)
	return emu, srv.URL + "/api/v2", seen
}

// client is a client of the emulator drawing on budget.
func client(t *testing.T, url, key string, budget api.Budget, tune func(*api.Options)) *api.Client {
	opts := api.Options{BaseURL: url, APIKey: key, Budget: budget, RateMinute: Minute, PollInterval: 5 * time.Millisecond}
	if tune != nil {
		tune(&opts)
	}
	c, err := api.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RunsProvokeNo429: four runs, each with its own handle of the budget, send
// 1,000 requests to one emulator together, more than its minute's 700: none
// is refused, and no minute of the service holds more than 700 of them nor
// any second of the route more than 40. That holds however slow the machine
// is; how many of them a minute holds does not (a loaded machine sends fewer
// than the budget allows), so that the minute is spent, not trickled, is
// MinuteIsSpentAtOnce's check, counted without a clock.
func RunsProvokeNo429(t *testing.T, open Open) {
	emu, url, seen := service(t)
	limits := api.Options{RateMinute: Minute}.Limits()
	created, err := client(t, url, emu.APIKey(), open(t, limits), nil).CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for range 4 {
		c := client(t, url, emu.APIKey(), open(t, limits), nil)
		for range 10 {
			wg.Go(func() {
				for range 25 {
					if _, err := c.ListEndpoints(context.Background(), created.Project.ID); err != nil {
						errs <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := emu.Stats().Statuses["429"]; n != 0 {
		t.Errorf("%d answers 429, want none: %v", n, emu.Stats().Responses)
	}
	if n := seen.most("", Minute); n > 700 {
		t.Errorf("%d requests arrived within one of the service's minutes, want at most 700", n)
	}
	if n := seen.most(api.RouteOf("GET", "/projects/p/endpoints"), Minute/60); n > 40 {
		t.Errorf("%d requests arrived within one of the service's seconds on one route, want at most 40", n)
	}
}

// A429PausesEveryRun: a 429 one run meets, asking for 30 s, makes another
// run wait out its rest, on another route. It returns the other run's
// handle, for the caller's checks of what was recorded.
func A429PausesEveryRun(t *testing.T, open Open) api.Budget {
	emu, url, _ := service(t)
	limits := api.Options{RateMinute: Minute}.Limits()
	first, second := open(t, limits), open(t, limits)
	c := client(t, url, emu.APIKey(), first, func(o *api.Options) { o.MaxRetries = -1 })
	emu.SetFaults(emulator.Faults{RateLimited: 1, RetryAfter: 30 * time.Second})
	if _, err := c.ListProjects(context.Background()); api.StatusOf(err) != http.StatusTooManyRequests {
		t.Fatalf("want the injected 429, got %v", err)
	}
	emu.SetFaults(emulator.Faults{})
	done, wait, err := second.Spend(context.Background(), api.RouteOf("GET", "/projects/p-1/endpoints"))
	if err != nil || done != nil || wait < 20*time.Second || wait > 30*time.Second {
		t.Errorf("another run, on another route, after a 429 asking for 30s: spent %t, wait %s, %v; want no request, the pause's rest", done != nil, wait, err)
	}
	return second
}
