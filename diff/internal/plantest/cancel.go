package plantest

import "context"

// CancelAt is a context cancelled at its nth look (never, when N is 0),
// counting every look in Looks: a test of how often a long pass looks at
// its context, and that the look that finds it done is its last.
type CancelAt struct {
	context.Context
	cancel   context.CancelFunc
	Looks, N int
}

// NewCancelAt is a CancelAt cancelled at look n.
func NewCancelAt(n int) *CancelAt {
	ctx, cancel := context.WithCancel(context.Background())
	return &CancelAt{Context: ctx, cancel: cancel, N: n}
}

func (c *CancelAt) Err() error {
	if c.Looks++; c.Looks == c.N {
		c.cancel()
	}
	return c.Context.Err()
}
