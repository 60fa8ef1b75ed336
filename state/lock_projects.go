package state

import (
	"context"
	"time"
)

// ProjectLocker is a backend that locks projects of its state one by one
// (Postgres), so that runs changing disjoint projects go on side by side.
// The local file backend has one lock for the whole state.
type ProjectLocker interface {
	Backend
	// LockProjects takes the locks of the projects (ids) and fails at
	// once, as Lock does, with a *LockedError naming the holder and the
	// project when one of them, or the whole state (Lock), is held. While
	// held, Read and Write work on these projects: Write stores their
	// entries over the stored state, leaving the others' as they are, and
	// refuses when one of them changed since this run read it.
	LockProjects(ctx context.Context, who string, projects []string) (unlock func() error, err error)
}

// LocksProjects reports whether b locks projects one by one.
func LocksProjects(b Backend) bool {
	_, ok := b.(ProjectLocker)
	return ok
}

// LockProjectsWaiting takes the locks of projects as LockProjects does,
// waiting for them as LockWaiting waits; a backend with one lock for the
// whole state (Local) takes that lock.
func LockProjectsWaiting(ctx context.Context, b Backend, who string, projects []string, wait time.Duration, waiting func(held *LockedError)) (unlock func() error, err error) {
	pl, ok := b.(ProjectLocker)
	if !ok {
		return LockWaiting(ctx, b, who, wait, waiting)
	}
	return lockWaiting(ctx, func() (func() error, error) { return pl.LockProjects(ctx, who, projects) }, wait, waiting)
}
