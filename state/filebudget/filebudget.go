// Package filebudget is the account's rate budget (api.Budget) kept in a
// small file under the user's cache directory, so that the runs on one
// machine that share no Postgres state still share the service's limits: an
// apply right after another, or several local runs at once on one account,
// stay together within 700 requests a minute and 40 a second a route, and a
// 429 any of them meets pauses them all. Runs on other machines are not seen:
// for those, the Postgres state shares the budget (state/pgbudget).
//
// Every spend reads, updates and rewrites the file under an exclusive lock of
// it; a run's asks of one route that wait together are one spend
// (state/internal/spendbatch), so that its burst is taken whole or up to the
// room left, not interleaved with another run's. The file is rewritten in
// place, not renamed over (a rename would give the next run a new file, and
// so a lock of its own) and not synced: it is advice, not a record, and a
// file a crash left torn is read as empty, which is what a run without it
// would know. The files no run wrote to for a week are pruned (prune.go).
//
// A file that cannot be used (no cache directory, a read-only one, a system
// without file locks) never fails a run: the budget says so once and goes on
// with the run's own (api.NewLedger).
package filebudget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/state/internal/spendbatch"
	"github.com/neonform/neonform/state/pgbudget"
)

// Budget is an account's budget in a file. Safe for concurrent use.
type Budget struct {
	limits  api.Limits
	warn    func(string)
	unspent atomic.Int64

	asks *spendbatch.Asks // a turn of the file's lock a route's asks that wait together

	mu       sync.Mutex // one update of the file at a time in this process
	f        *os.File
	fallback *api.Ledger // once the file failed
}

var _ api.Budget = (*Budget)(nil)

// Path is where the budget of the account with key at apiURL is kept: a file
// in the user's cache directory named by a hash of the two
// (pgbudget.Account), never by the key.
func Path(apiURL, key string) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "neonform", filePrefix+pgbudget.Account(apiURL, key)+fileSuffix), nil
}

// A budget file's name is filePrefix, the account's hash and fileSuffix.
const filePrefix, fileSuffix = "budget-", ".json"

// OpenAccount is the budget of the account with key at apiURL, kept at Path;
// without a cache directory, warn is told so and the budget is the run's own.
// The other accounts' files that no run used for a week are removed first
// (prune).
func OpenAccount(apiURL, key string, limits api.Limits, warn func(string)) *Budget {
	path, err := Path(apiURL, key)
	if err != nil {
		b := newBudget(limits, warn)
		b.fail(err)
		return b
	}
	prune(filepath.Dir(path), path, time.Now())
	return Open(path, limits, warn)
}

// Open is the budget kept at path, which is created with its directory if
// missing. If the file cannot be used, warn is told once why and the budget
// is the run's own from then on.
func Open(path string, limits api.Limits, warn func(string)) *Budget {
	b := newBudget(limits, warn)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.fail(err)
		return b
	}
	// A first update, so that a file that cannot be locked is said now. A
	// run pruning unused files (prune.go) may remove the file between its
	// open and the lock: it is opened once more then, new, and no run
	// prunes it for a week.
	b.mu.Lock()
	defer b.mu.Unlock()
	for try := 0; ; try++ {
		f, err := openRegular(path)
		if err != nil {
			b.failLocked(err)
			return b
		}
		b.f = f
		if err := b.updateLocked(func(*ledger, time.Time) {}); err != nil {
			b.failLocked(err)
			return b
		}
		if try > 0 || names(path, f) {
			return b
		}
		f.Close()
	}
}

// names is whether path still names the file f.
func names(path string, f *os.File) bool {
	at, err := os.Stat(path)
	if err != nil {
		return false
	}
	open, err := f.Stat()
	return err == nil && os.SameFile(at, open)
}

// newBudget is a budget of limits without its file yet.
func newBudget(limits api.Limits, warn func(string)) *Budget {
	b := &Budget{limits: limits, warn: warn}
	b.asks = spendbatch.New(b.spendMany, b.answered)
	b.unspent.Store(int64(limits.PerMinute))
	return b
}

// Close releases the file. A request answered after it is not recorded
// (it counts until it is stale), and a spend after it is the run's own.
func (b *Budget) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.f != nil {
		b.f.Close()
		b.f = nil
	}
	if b.fallback == nil {
		b.fallback = api.NewLedger(b.limits)
	}
}

// Spend takes a request on route out of the account's budget, or says how
// long to wait; done records when its answer came back. The asks of a route
// that wait together are taken in one turn of the file's lock
// (state/internal/spendbatch).
func (b *Budget) Spend(ctx context.Context, route string) (func(), time.Duration, error) {
	done, wait, err := b.asks.Spend(ctx, route)
	if errors.Is(err, errFallback) {
		return b.fallback.Spend(ctx, route)
	}
	return done, wait, err
}

// spendMany takes up to n requests on route in one turn of the file's lock:
// the ids of those taken, and how long the rest wait. It fails only with
// errFallback, once the file failed.
func (b *Budget) spendMany(route string, n int) ([]int64, time.Duration, error) {
	var ids []int64
	var wait time.Duration
	err := b.update(func(l *ledger, now time.Time) {
		unspent := 0
		for len(ids) < n {
			w, left := l.wait(route, b.limits, now)
			if unspent = left; w > 0 {
				wait = w
				break
			}
			ids = append(ids, l.spend(route, now))
			unspent--
		}
		b.unspent.Store(int64(max(unspent, 0)))
	})
	if err != nil {
		return nil, 0, errFallback
	}
	return ids, wait, nil
}

// answered records that request id came back. Failing, the request counts
// as unanswered until it is stale: the budget errs on the safe side.
func (b *Budget) answered(id int64) {
	_ = b.update(func(l *ledger, now time.Time) { l.answered(id, now) })
}

// Throttled records a 429 for every run of the account: they all pause for
// wait, and the limits halve until a minute after the pause.
func (b *Budget) Throttled(ctx context.Context, route string, wait time.Duration) error {
	if err := b.update(func(l *ledger, now time.Time) { l.throttled(wait, b.limits.Minute, now) }); err != nil {
		return b.fallback.Throttled(ctx, route, wait)
	}
	return nil
}

// Unspent is what was left of the account's minute at the last spend.
func (b *Budget) Unspent() int {
	b.mu.Lock()
	fallback := b.fallback
	b.mu.Unlock()
	if fallback != nil {
		return fallback.Unspent()
	}
	return int(b.unspent.Load())
}

// Throttles is how many 429s the account's runs have recorded in the file.
func (b *Budget) Throttles() (int64, error) {
	var n int64
	err := b.update(func(l *ledger, _ time.Time) { n = l.Throttles })
	return n, err
}

// update applies change to the ledger in the file, under its lock. After a
// failure, which it reports once, the budget is the run's own, and update
// fails at once.
func (b *Budget) update(change func(*ledger, time.Time)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fallback != nil {
		return errFallback
	}
	if err := b.updateLocked(change); err != nil {
		b.failLocked(err)
		return err
	}
	return nil
}

var errFallback = fmt.Errorf("the rate budget's file failed before")

// updateLocked reads the ledger, changes it, and writes it back, holding the
// file's lock. Caller holds b.mu.
func (b *Budget) updateLocked(change func(*ledger, time.Time)) (err error) {
	if err := lockFile(b.f); err != nil {
		return err
	}
	defer func() {
		if uerr := unlockFile(b.f); err == nil {
			err = uerr
		}
	}()
	st, err := b.f.Stat()
	if err != nil {
		return err
	}
	data := make([]byte, st.Size())
	if _, err := b.f.ReadAt(data, 0); err != nil && len(data) > 0 {
		return err
	}
	var l ledger
	if json.Unmarshal(data, &l) != nil {
		l = ledger{} // empty, or torn by a crash: nothing known
	}
	now := time.Now()
	l.prune(b.limits, now)
	change(&l, now)
	if data, err = json.Marshal(&l); err != nil {
		return err
	}
	if _, err := b.f.WriteAt(data, 0); err != nil {
		return err
	}
	return b.f.Truncate(int64(len(data)))
}

// fail says once why the file cannot be used and turns to the run's own
// budget.
func (b *Budget) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failLocked(err)
}

func (b *Budget) failLocked(err error) {
	if b.fallback != nil {
		return
	}
	b.fallback = api.NewLedger(b.limits)
	if b.f != nil {
		b.f.Close()
		b.f = nil
	}
	if b.warn != nil {
		b.warn(fmt.Sprintf("Warning: this run keeps its own rate budget, not shared with other runs on this machine: %v", err))
	}
}

// newID names a request in the file: random, as runs write it at once.
func newID() int64 { return rand.Int64() }

// openRegular opens the budget file at path in place, as a file runs
// share (atomicfile.OpenShared: a regular file or a link to one, nothing
// else).
func openRegular(path string) (*os.File, error) {
	return atomicfile.OpenShared(path, atomicfile.Options{Rule: "the rate budget is kept only in a regular file: remove it, and the next run makes one"})
}
