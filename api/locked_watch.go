package api

import "context"

// lockedWatchKey carries a WatchLocked callback in a context.
type lockedWatchKey struct{}

// WatchLocked returns ctx with running, which a mutation sent with the
// returned context calls while it waits out a refusal that lasts until its
// project's operations finish (423 Locked, or 422 "branch not ready yet"):
// after each look at the project's operations that found some running, how
// many (as WatchProjectIdle tells them), and 0 once the wait is over. A
// caller that did not start those operations can so say what it waits for,
// instead of being silent while the call lasts. Reads never wait so.
func WatchLocked(ctx context.Context, running func(n int)) context.Context {
	return context.WithValue(ctx, lockedWatchKey{}, running)
}

// lockedWatch is the WatchLocked callback of ctx, or nil.
func lockedWatch(ctx context.Context) func(n int) {
	f, _ := ctx.Value(lockedWatchKey{}).(func(n int))
	return f
}
