// Package abandon runs a call that looks at no context (hcl's parser,
// encoding/json) so that an interrupt need not wait for it: parsing one
// configuration file at the 8 MiB limit takes seconds of CPU, and SIGINT
// or SIGTERM stops every phase of a run within a second (docs/apply.md,
// Interrupting).
package abandon

import "context"

// Call returns f's result, or ctx's error as soon as ctx is done while f
// runs (or before it starts). f is then left to run to its end in its own
// goroutine, its result dropped: a command that was interrupted exits
// right after, so what f goes on using is the process's last CPU and
// memory; a caller that lives on (the language server) pays for the rest
// of f once. A panic in f ends the process from f's goroutine, as it would
// have from the caller's: nothing in neonform recovers from one there.
//
// A ctx that is never done (context.Background) runs f in the caller's
// goroutine.
func Call[T any](ctx context.Context, f func() T) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if ctx.Done() == nil {
		return f(), nil
	}
	done := make(chan T, 1) // f's send never blocks, whoever has gone
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}
