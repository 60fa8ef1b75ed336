package pgbudget_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/state/internal/budgettest"
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

// Runs each with its own connection to the budget (as separate processes
// would have) keep the budget's contract together.
func TestRunsSharingTheBudgetProvokeNo429(t *testing.T) {
	acc := account(t)
	budgettest.RunsProvokeNo429(t, func(t *testing.T, limits api.Limits) api.Budget { return open(t, acc, limits) })
}

// A 429 one run records in the database pauses the others.
func TestA429PausesEveryRun(t *testing.T) {
	acc := account(t)
	other := budgettest.A429PausesEveryRun(t, func(t *testing.T, limits api.Limits) api.Budget { return open(t, acc, limits) })
	if n, err := other.(*pgbudget.Budget).Throttles(context.Background()); n != 1 || err != nil {
		t.Errorf("the budget recorded %d 429s (%v), want 1", n, err)
	}
}

// A run's first burst of requests (its plan's reads, 40 at once) opens no
// more than two connections to the database: each costs a server
// process's start, which held the burst back while spends, one at a time
// under the account's lock, gained nothing from them.
func TestABurstOpensFewConnections(t *testing.T) {
	b := open(t, account(t), api.Limits{PerMinute: 700, PerRoute: 40, Minute: time.Minute})
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			done, wait, err := b.Spend(context.Background(), "GET /projects/{}/endpoints")
			if err != nil || done == nil {
				t.Errorf("a spend of a burst of 40 on an unused budget: wait %s, %v", wait, err)
				return
			}
			done()
		})
	}
	wg.Wait()
	if n := b.Conns(); n > 2 {
		t.Errorf("a burst of 40 spends opened %d connections to the budget's database, want at most 2", n)
	}
}
