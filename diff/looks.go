package diff

import "context"

// looker looks at a run's context once every interruptEvery items of a
// long loop, so that an interrupt stops planning and checking a plan
// within a second however large the state (docs/apply.md, Interrupting),
// at no cost worth measuring. Once ctx is done it stays stopped.
type looker struct {
	ctx context.Context
	n   int
	err error
}

func newLooker(ctx context.Context) *looker { return &looker{ctx: ctx} }

// stop counts one item and returns ctx's error once a look found it done.
func (l *looker) stop() error {
	if l.err == nil {
		if l.n++; l.n%interruptEvery == 0 {
			l.err = l.ctx.Err()
		}
	}
	return l.err
}
