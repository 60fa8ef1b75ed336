package budgettest

import (
	"context"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

// WindowLimits are the limits KeepsBothWindows counts against: 5 a minute,
// 3 a second a route.
var WindowLimits = api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute}

// KeepsBothWindows: of WindowLimits, spent in turn through runs (handles of
// one budget, as runs would hold it), a route's fourth waits for the
// second, and the sixth request on any route for the minute; a request
// unanswered counts until it is answered. other, another account's budget,
// is its own.
func KeepsBothWindows(t *testing.T, runs []api.Budget, other api.Budget) {
	ctx := context.Background()
	minute, second := api.Limits{Minute: time.Minute}.Windows()
	var dones []func()
	i := 0
	spend := func(route string) time.Duration {
		i++
		done, wait, err := runs[i%len(runs)].Spend(ctx, route)
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
	if n := runs[i%len(runs)].Unspent(); n != 0 {
		t.Errorf("after 5 of 5: %d unspent", n)
	}
	if w := spend("GET /c"); w < second || w > minute {
		t.Errorf("the sixth of the minute waits %s, want the minute's rest", w)
	}
	if done, w, err := other.Spend(ctx, "GET /a"); done == nil || w != 0 || err != nil {
		t.Errorf("another account: wait %s, %v", w, err)
	}
}
