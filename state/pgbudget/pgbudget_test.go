package pgbudget_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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

// The windows, counted (budgettest.KeepsBothWindows); another account's
// budget is its own.
func TestSpendKeepsBothWindows(t *testing.T) {
	l := budgettest.WindowLimits
	budgettest.KeepsBothWindows(t, []api.Budget{open(t, account(t), l)}, open(t, account(t)+"x", l))
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

// Runs that find the account's budget unused spend its minute at once.
func TestMinuteIsSpentAtOnce(t *testing.T) {
	acc := account(t)
	budgettest.MinuteIsSpentAtOnce(t, func(t *testing.T, limits api.Limits) api.Budget { return open(t, acc, limits) })
}

// Two runs' bursts of one route, asked while another session holds the
// account's lock, are each spent in one statement: one is taken whole, the
// other's rest waits (budgettest.BurstsAreTakenWhole).
func TestBurstsAreTakenWhole(t *testing.T) {
	acc := account(t)
	budgettest.BurstsAreTakenWhole(t, func(t *testing.T, limits api.Limits) budgettest.Batched { return open(t, acc, limits) },
		func() func() { return holdAccountLock(t, acc) })
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

// The asks of one route that wait together go in one statement: with the
// account's lock held elsewhere, the first ask's statement waits for it, the
// asks meanwhile wait for the next, and once the lock is let go they are
// taken in two statements, where each was one of its own (a turn of the lock
// each, interleaved with the other runs'). A statement takes as many as the
// route's second has room for, and the rest wait for it.
func TestABurstIsSpentInTwoStatements(t *testing.T) {
	for _, c := range []struct{ asks, perRoute, taken int }{{40, 40, 40}, {5, 3, 3}} {
		t.Run(fmt.Sprintf("%d asks, %d a second", c.asks, c.perRoute), func(t *testing.T) {
			taken, waits := burstBehindTheLock(t, c.asks, c.perRoute)
			if taken != c.taken {
				t.Errorf("%d requests taken, want %d", taken, c.taken)
			}
			_, second := api.Limits{Minute: time.Minute}.Windows()
			for _, w := range waits {
				if w <= 0 || w > second {
					t.Errorf("a request left out waits %s, want up to a second (%s)", w, second)
				}
			}
		})
	}
}

// burstBehindTheLock asks for n requests of one route while another session
// holds the account's lock, the first alone and the rest while its statement
// waits, checks that they went in two statements, and says how many were
// taken and how long the others were told to wait.
func burstBehindTheLock(t *testing.T, n, perRoute int) (taken int, waits []time.Duration) {
	acc := account(t)
	b := open(t, acc, api.Limits{PerMinute: 700, PerRoute: perRoute, Minute: time.Minute})
	ctx := context.Background()
	release := holdAccountLock(t, acc)
	const route = "POST /projects/{}/endpoints"
	var mu sync.Mutex
	var wg sync.WaitGroup
	spend := func() {
		wg.Go(func() {
			done, wait, err := b.Spend(ctx, route)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case done != nil:
				taken++
				done()
			default:
				waits = append(waits, wait)
			}
		})
	}
	spend()
	until(t, func() bool { return b.Statements() == 1 })
	for range n - 1 {
		spend()
	}
	until(t, func() bool { return b.Queued(route) == n-1 })
	release()
	wg.Wait()
	if s := b.Statements(); s != 2 {
		t.Errorf("%d asks of one route, all but the first while its statement waited: %d statements, want 2", n, s)
	}
	return taken, waits
}

// holdAccountLock takes the account's lock in a session of its own, as
// another run's statement would hold it, and returns its release.
func holdAccountLock(t *testing.T, acc string) (release func()) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	lock := func(f string) {
		if _, err := conn.Exec(ctx, `SELECT `+f+`(hashtext('neonform_rate/' || $1::text))`, acc); err != nil {
			t.Error(err)
		}
	}
	lock("pg_advisory_lock")
	return func() {
		lock("pg_advisory_unlock")
		conn.Close(ctx)
	}
}

// until waits for cond, which the code under test makes true soon.
func until(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("still not so after a minute")
		}
	}
}
