package view

import (
	"context"

	"github.com/neonform/neonform/internal/jsonfast"
)

// looks is how a view given up on stops. An interrupted plan returns at
// once and leaves its view formatting in its goroutine (abandon.Call, in
// internal/command's plan_run.go), which a caller that lives on (the
// language server, the emulator) would pay for to the end of a plan of
// 250,000 changes: some seconds of CPU. So a view counts the entries it
// formats and looks at its context every jsonfast.LookEvery of them, as a
// decoding does; once the context is done, or a write failed (an
// interrupted run's writer fails every write: abandon.Writer), it formats
// no more entries and returns that error.
type looks struct {
	look func() error
	err  error
}

func newLooks(ctx context.Context) *looks { return &looks{look: jsonfast.Interrupted(ctx)} }

// stopped counts one entry and reports whether the view is to stop.
func (l *looks) stopped() bool {
	if l.err == nil {
		l.err = l.look()
	}
	return l.err != nil
}

// failed records a write that failed: the view stops at its next entry.
func (l *looks) failed(err error) {
	if l.err == nil {
		l.err = err
	}
}
