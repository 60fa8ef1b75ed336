package apply

import "sync"

// lockChecks shares the checks that the run still holds the state lock
// (run.checkLock) among the projects that ask at once. A project waits for a
// check that began after it asked, never one already under way, so its
// change is still preceded by a check of its own time; but one check answers
// every project waiting for it, as one write of the recorder covers every
// change made while the one before ran. Fifteen projects starting together
// waited for fifteen checks in a row (with a Postgres state, each a
// statement on the state's one connection); now for two at most.
type lockChecks struct {
	mu      sync.Mutex
	cond    *sync.Cond
	started uint64 // checks begun
	ended   uint64 // checks over: the last one's error is err
	running bool
	err     error
	waiting int // callers waiting for a check to end
}

func newLockChecks() *lockChecks {
	c := &lockChecks{}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// check returns the outcome of a run of check that began after it was
// called: its own, or one it waited for with other callers.
func (c *lockChecks) check(check func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	need := c.started + 1
	for c.ended < need {
		if c.running {
			c.waiting++
			c.cond.Wait()
			c.waiting--
			continue
		}
		c.running = true
		c.started++
		c.mu.Unlock()
		err := check()
		c.mu.Lock()
		c.running = false
		c.ended = c.started
		c.err = err
		c.cond.Broadcast()
	}
	return c.err
}
