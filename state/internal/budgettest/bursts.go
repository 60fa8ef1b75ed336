package budgettest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

// Batched is a budget whose asks of one route that wait together are spent
// in one turn of its lock (state/internal/spendbatch), with its counts for
// tests.
type Batched interface {
	api.Budget
	Statements() int64       // the spends sent, each a turn of the lock
	Queued(route string) int // the asks of route waiting for the next
}

// OpenBatched is another run's handle of the one budget under test, at
// limits.
type OpenBatched func(t *testing.T, limits api.Limits) Batched

// BurstsAreTakenWhole: two runs each ask for a burst of 15 requests on one
// route while the budget's lock is held elsewhere (hold takes it as another
// run would, and returns its release), the first ask of each alone and the
// rest while its spend waits; together the bursts overflow the route's
// second (20). Each run spends in two turns of the lock, and one run's burst
// is taken whole while the other's rest waits, up to a second: the second
// that cannot hold both bursts leaves one run waiting, not both cut short.
// No request is answered before the end, so none leaves a window however
// slow the machine is.
func BurstsAreTakenWhole(t *testing.T, open OpenBatched, hold func() (release func())) {
	const route, burst = "POST /projects/{}/endpoints", 15
	limits := api.Limits{PerMinute: 700, PerRoute: 20, Minute: time.Minute}
	runs := []Batched{open(t, limits), open(t, limits)}
	release := hold()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var dones []func()
	taken := make([]int, len(runs))
	spend := func(r int) {
		wg.Go(func() {
			done, wait, err := runs[r].Spend(context.Background(), route)
			mu.Lock()
			defer mu.Unlock()
			_, second := limits.Windows()
			switch {
			case err != nil:
				t.Error(err)
			case done != nil:
				taken[r]++
				dones = append(dones, done)
			case wait <= 0 || wait > second:
				t.Errorf("an ask left out waits %s, want up to a second (%s)", wait, second)
			}
		})
	}
	for r, run := range runs {
		spend(r)
		until(t, func() bool { return run.Statements() == 1 })
		for range burst - 1 {
			spend(r)
		}
		until(t, func() bool { return run.Queued(route) == burst-1 })
	}
	release()
	wg.Wait()
	for _, done := range dones {
		done()
	}
	for r, run := range runs {
		if s := run.Statements(); s != 2 {
			t.Errorf("run %d: %d asks of one route, all but the first while its spend waited: %d spends, want 2", r+1, burst, s)
		}
	}
	slices.Sort(taken)
	if want := []int{limits.PerRoute - burst, burst}; !slices.Equal(taken, want) {
		t.Errorf("two runs' bursts of %d on a route of %d a second: %v taken, want %v (one burst whole, the other's rest waiting)", burst, limits.PerRoute, taken, want)
	}
}

// MinuteIsSpentAtOnce: runs that find the budget unused spend the whole
// minute at once: 700 requests asked together through four handles, 35 on
// each of 20 routes (within a route's 40), are all taken without a wait,
// and the 701st waits for the minute. Nothing is answered before the end,
// so the count does not depend on how fast the machine is.
func MinuteIsSpentAtOnce(t *testing.T, open Open) {
	limits := api.Limits{PerMinute: 700, PerRoute: 40, Minute: time.Minute}
	runs := []api.Budget{open(t, limits), open(t, limits), open(t, limits), open(t, limits)}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var dones []func()
	for i := range 700 {
		wg.Go(func() {
			done, wait, err := runs[i%len(runs)].Spend(context.Background(), fmt.Sprintf("GET /r%d", i%20))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case done == nil:
				t.Errorf("an ask of the minute's 700 on an unused budget waits %s", wait)
			default:
				dones = append(dones, done)
			}
		})
	}
	wg.Wait()
	_, second := limits.Windows()
	if done, wait, err := runs[0].Spend(context.Background(), "GET /r700"); done != nil || err != nil || wait <= second {
		t.Errorf("the 701st of the minute: taken %t, wait %s, %v; want a wait for the minute", done != nil, wait, err)
	}
	for _, done := range dones {
		done()
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
