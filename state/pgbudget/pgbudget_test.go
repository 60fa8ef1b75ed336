package pgbudget_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/state/pgbudget"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// open is a budget of limits for an account of the test's own.
func open(t *testing.T, account string, limits api.Limits) *pgbudget.Budget {
	t.Helper()
	b, err := pgbudget.Open(context.Background(), pgtest.DSN(t), account, limits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func account(t *testing.T) string {
	return pgbudget.Account("http://"+t.Name(), fmt.Sprint(time.Now().UnixNano()))
}

// The windows, counted: of 5 a minute and 3 a second a route, a route's
// fourth waits for the second, and the sixth request on any route for the
// minute; a request unanswered counts until it is answered.
func TestSpendKeepsBothWindows(t *testing.T) {
	acc := account(t)
	b := open(t, acc, api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute})
	ctx := context.Background()
	minute, second := api.Limits{Minute: time.Minute}.Windows()
	var dones []func()
	spend := func(route string) time.Duration {
		done, wait, err := b.Spend(ctx, route)
		if err != nil {
			t.Fatal(err)
		}
		if done != nil {
			dones = append(dones, done)
		}
		return wait
	}
	for i := range 3 {
		if w := spend("GET /a"); w != 0 {
			t.Fatalf("request %d of route a waits %s", i+1, w)
		}
	}
	if w := spend("GET /a"); w != second {
		t.Errorf("the fourth on a route, three unanswered: waits %s, want a whole second (%s)", w, second)
	}
	for _, done := range dones {
		done()
	}
	if w := spend("GET /a"); w <= 0 || w > second {
		t.Errorf("the fourth on a route, three answered: waits %s, want less than a second", w)
	}
	if w := spend("GET /b") + spend("GET /b"); w != 0 {
		t.Errorf("another route waited %s", w)
	}
	if n := b.Unspent(); n != 0 {
		t.Errorf("after 5 of 5: %d unspent", n)
	}
	if w := spend("GET /c"); w < second || w > minute {
		t.Errorf("the sixth of the minute waits %s, want the minute's rest", w)
	}
	// Another account's budget is its own.
	other := open(t, account(t)+"x", api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute})
	if done, w, err := other.Spend(ctx, "GET /a"); done == nil || w != 0 || err != nil {
		t.Errorf("another account: wait %s, %v", w, err)
	}
}

// arrivals records when each request reached the service.
type arrivals struct {
	mu    sync.Mutex
	times []time.Time
}

func (a *arrivals) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.times = append(a.times, time.Now())
		a.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// most is the most requests that arrived within any span.
func (a *arrivals) most(span time.Duration) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	times := slices.Clone(a.times)
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

// service is an emulator at the documented limits, its minute shrunk to 6
// seconds, and the arrivals of its requests.
func service(t *testing.T, minute time.Duration) (*emulator.Emulator, string, *arrivals) {
	emu, err := emulator.New(emulator.Options{APIKey: "napi_budget_test", RatePerMinute: 700, Burst: 40, RateMinute: minute})
	if err != nil {
		t.Fatal(err)
	}
	seen := &arrivals{}
	srv := httptest.NewServer(seen.wrap(emu.Handler()))
	t.Cleanup(srv.Close)
	return emu, srv.URL + "/api/v2", seen
}

// client is a client of the emulator drawing on budget.
func client(t *testing.T, url, key string, budget api.Budget, minute time.Duration, tune func(*api.Options)) *api.Client {
	opts := api.Options{BaseURL: url, APIKey: key, Budget: budget, RateMinute: minute, PollInterval: 5 * time.Millisecond}
	if tune != nil {
		tune(&opts)
	}
	c, err := api.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Four runs, each with its own connection to the budget (as four processes
// would have), send 1,200 requests to one emulator together, more than its
// minute's 700: none is refused, and no minute of the service holds more
// than 700 of them.
func TestRunsSharingTheBudgetProvokeNo429(t *testing.T) {
	const minute = 6 * time.Second
	emu, url, seen := service(t, minute)
	acc := account(t)
	limits := api.Options{RateMinute: minute}.Limits()
	created, err := client(t, url, emu.APIKey(), open(t, acc, limits), minute, nil).CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1200)
	for range 4 {
		c := client(t, url, emu.APIKey(), open(t, acc, limits), minute, nil)
		for range 10 {
			wg.Go(func() {
				for range 30 {
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
	if n := seen.most(minute); n > 700 {
		t.Errorf("%d requests arrived within one of the service's minutes, want at most 700", n)
	}
	if n := seen.most(minute); n < 600 {
		t.Errorf("at most %d requests arrived within one of the service's minutes: the budget is trickled, not spent", n)
	}
}

// A 429 that one run meets makes the others wait out its Retry-After.
func TestA429PausesEveryRun(t *testing.T) {
	const minute = 6 * time.Second
	emu, url, _ := service(t, minute)
	acc := account(t)
	limits := api.Options{RateMinute: minute}.Limits()
	first, second := open(t, acc, limits), open(t, acc, limits)
	c := client(t, url, emu.APIKey(), first, minute, func(o *api.Options) { o.MaxRetries = -1 })
	emu.SetFaults(emulator.Faults{RateLimited: 1, RetryAfter: 30 * time.Second})
	if _, err := c.ListProjects(context.Background()); api.StatusOf(err) != http.StatusTooManyRequests {
		t.Fatalf("want the injected 429, got %v", err)
	}
	emu.SetFaults(emulator.Faults{})
	done, wait, err := second.Spend(context.Background(), api.RouteOf("GET", "/projects/p-1/endpoints"))
	if err != nil || done != nil || wait < 20*time.Second || wait > 30*time.Second {
		t.Errorf("another run, on another route, after a 429 asking for 30s: spent %t, wait %s, %v; want no request, the pause's rest", done != nil, wait, err)
	}
	if n, err := second.Throttles(context.Background()); n != 1 || err != nil {
		t.Errorf("the budget recorded %d 429s (%v), want 1", n, err)
	}
}
