package state

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// lockBackends are two backends of one state, a local file and a Postgres
// table, each as two runs see it: the holder and the one that waits.
func lockBackends(t *testing.T) map[string][2]Backend {
	path := statePath(t)
	pg, dsn, name := newTestPostgres(t)
	return map[string][2]Backend{
		"local":    {NewLocal(path), NewLocal(path)},
		"postgres": {pg, openPostgres(t, dsn, name)},
	}
}

func TestLockWaitingTakesTheLockOnceItsHolderReleasesIt(t *testing.T) {
	for name, b := range lockBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			unlockA, err := b[0].Lock(WithOperation(ctx, "apply"), "alice")
			if err != nil {
				t.Fatal(err)
			}
			var told []*LockedError
			unlockB, err := LockWaiting(ctx, b[1], "bob", time.Minute, func(held *LockedError) {
				told = append(told, held)
				// alice's run ends while bob waits
				if err := unlockA(); err != nil {
					t.Error(err)
				}
			})
			if err != nil {
				t.Fatalf("LockWaiting = %v, want the lock once alice released it", err)
			}
			defer unlockB()
			if len(told) != 1 || told[0].Info.Who != "alice" || !strings.Contains(told[0].Holder(), "alice on host") || !strings.Contains(told[0].Holder(), "for apply since ") {
				t.Errorf("told %v, want once that alice holds it for apply", told)
			}
			if err := b[1].CheckLock(ctx); err != nil {
				t.Errorf("bob does not hold the lock: %v", err)
			}
			if _, err := b[0].Lock(ctx, "carol"); err == nil || !strings.Contains(err.Error(), "bob") {
				t.Errorf("a third Lock = %v, want bob's lock named", err)
			}
		})
	}
}

func TestLockWaitingGivesUpWithTheLockedError(t *testing.T) {
	for name, b := range lockBackends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			unlockA, err := b[0].Lock(ctx, "alice")
			if err != nil {
				t.Fatal(err)
			}
			defer unlockA()

			told := 0
			_, err = LockWaiting(ctx, b[1], "bob", 300*time.Millisecond, func(*LockedError) { told++ })
			var le *LockedError
			var we *LockWaitError
			if !errors.As(err, &le) || !errors.As(err, &we) || le.Info.Who != "alice" {
				t.Fatalf("LockWaiting = %v, want alice's LockedError after the wait", err)
			}
			if !strings.HasPrefix(err.Error(), "gave up waiting 300ms for the state lock: state is locked: ") || told != 1 {
				t.Errorf("err = %q, told %d times; want the wait and the usual lock error, told once", err, told)
			}

			// 0 does not wait: the LockedError at once, nobody told.
			_, err = LockWaiting(ctx, b[1], "bob", 0, func(*LockedError) { told++ })
			if !errors.As(err, &le) || errors.As(err, &we) || told != 1 {
				t.Errorf("LockWaiting with 0 = %v (told %d), want the LockedError at once", err, told)
			}
		})
	}
}

func TestLockWaitingStopsWhenCancelled(t *testing.T) {
	for name, b := range lockBackends(t) {
		t.Run(name, func(t *testing.T) {
			unlockA, err := b[0].Lock(context.Background(), "alice")
			if err != nil {
				t.Fatal(err)
			}
			defer unlockA()
			ctx, cancel := context.WithCancel(context.Background())
			_, err = LockWaiting(ctx, b[1], "bob", time.Hour, func(*LockedError) { cancel() }) // Ctrl-C as the wait starts
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "alice") {
				t.Errorf("LockWaiting = %v, want it stopped by the cancel, naming the holder", err)
			}
		})
	}
}
