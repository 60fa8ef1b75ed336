package abandon

import (
	"context"
	"io"
)

// Writer is w that stops writing once ctx is done: every Write after that
// returns ctx's error and writes nothing. Writing a large plan (a plan file
// of 100 MB, a view of 250,000 lines) is made of many writes through a
// buffer, so wrapping what is written to stops it at the next write
// instead of after the last, and the error says why it stopped.
func Writer(ctx context.Context, w io.Writer) io.Writer {
	if ctx.Done() == nil {
		return w
	}
	return &writer{ctx: ctx, w: w}
}

type writer struct {
	ctx context.Context
	w   io.Writer
}

func (s *writer) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.w.Write(p)
}
