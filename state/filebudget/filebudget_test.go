package filebudget_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state/filebudget"
)

// open is a budget of limits kept at path, as one run would open it.
func open(t *testing.T, path string, limits api.Limits) *filebudget.Budget {
	t.Helper()
	b := filebudget.Open(path, limits, func(msg string) { t.Errorf("unexpected warning: %s", msg) })
	t.Cleanup(b.Close)
	return b
}

// The windows, counted across two runs of one file: of 5 a minute and 3 a
// second a route, a route's fourth waits for the second, and the sixth
// request on any route for the minute; unanswered counts until answered.
func TestSpendKeepsBothWindowsAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	limits := api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute}
	runs := []*filebudget.Budget{open(t, path, limits), open(t, path, limits)}
	ctx := context.Background()
	minute, second := api.Limits{Minute: time.Minute}.Windows()
	var dones []func()
	i := 0
	spend := func(route string) time.Duration {
		i++
		done, wait, err := runs[i%2].Spend(ctx, route)
		if err != nil {
			t.Fatal(err)
		}
		if done != nil {
			dones = append(dones, done)
		}
		return wait
	}
	for n := range 3 {
		if w := spend("GET /a"); w != 0 {
			t.Fatalf("request %d of route a waits %s", n+1, w)
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
	if n := runs[i%2].Unspent(); n != 0 {
		t.Errorf("after 5 of 5: %d unspent", n)
	}
	if w := spend("GET /c"); w < second || w > minute {
		t.Errorf("the sixth of the minute waits %s, want the minute's rest", w)
	}
	// Another account's file is its own.
	other := open(t, path+"x", limits)
	if done, w, err := other.Spend(ctx, "GET /a"); done == nil || w != 0 || err != nil {
		t.Errorf("another account: wait %s, %v", w, err)
	}
}

// The file is named by a hash, never by the key.
func TestPathHidesTheKey(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	p, err := filebudget.Path("https://console.neon.tech/api/v2", "napi_secret")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p, "napi_secret") || !strings.HasPrefix(filepath.Base(p), "budget-") {
		t.Errorf("path %s", p)
	}
	if q, _ := filebudget.Path("https://console.neon.tech/api/v2", "napi_other"); q == p {
		t.Errorf("two keys, one file %s", p)
	}
}

// A file that cannot be made is said once, and the run goes on with its own
// budget.
func TestUnusableFileFallsBackWithOneWarning(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	b := filebudget.Open(filepath.Join(notDir, "budget.json"), api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute},
		func(msg string) { warnings = append(warnings, msg) })
	defer b.Close()
	for range 3 {
		if done, w, err := b.Spend(context.Background(), "GET /a"); done == nil || w != 0 || err != nil {
			t.Fatalf("spend on the run's own budget: wait %s, %v", w, err)
		}
	}
	if _, w, _ := b.Spend(context.Background(), "GET /a"); w == 0 {
		t.Error("the run's own budget does not keep the route's window")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "own rate budget") {
		t.Errorf("warnings %q, want one", warnings)
	}
}

// arrivals records when each request reached the service.
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

// service is an emulator at the documented limits, its minute shrunk, and the
// arrivals of its requests.
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

// Three runs, each with its own handle of one file (as three processes would
// have), send 1,000 requests to one emulator together, more than its
// minute's 700: none is refused, and no minute of the service holds more
// than 700 of them.
func TestRunsSharingTheFileProvokeNo429(t *testing.T) {
	const minute = 6 * time.Second
	emu, url, seen := service(t, minute)
	path := filepath.Join(t.TempDir(), "budget.json")
	limits := api.Options{RateMinute: minute}.Limits()
	created, err := client(t, url, emu.APIKey(), open(t, path, limits), minute, nil).CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for range 4 {
		c := client(t, url, emu.APIKey(), open(t, path, limits), minute, nil)
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
	if n := seen.most("", minute); n > 700 {
		t.Errorf("%d requests arrived within one of the service's minutes, want at most 700", n)
	}
	if n := seen.most(api.RouteOf("GET", "/projects/p/endpoints"), minute/60); n > 40 {
		t.Errorf("%d requests arrived within one of the service's seconds on one route, want at most 40", n)
	}
}

// A 429 that one run meets makes the others wait out its Retry-After.
func TestA429PausesEveryRun(t *testing.T) {
	const minute = 6 * time.Second
	emu, url, _ := service(t, minute)
	path := filepath.Join(t.TempDir(), "budget.json")
	limits := api.Options{RateMinute: minute}.Limits()
	first, second := open(t, path, limits), open(t, path, limits)
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
	if n, err := second.Throttles(); n != 1 || err != nil {
		t.Errorf("the file recorded %d 429s (%v), want 1", n, err)
	}
}
