package views

import (
	"sync"
	"time"
)

// A status line is one line of a terminal, redrawn in place: apply's steps
// in flight, and plan's reading of the live endpoints. Both redraw it as
// often, and erase it the same way.

// EraseLine takes the cursor back to the start of the status line and
// clears it, so that what follows is written over it.
const EraseLine = "\r\x1b[K"

// liveRedraw is how often a status line on a terminal is redrawn: often
// enough that its clock seems to run.
const liveRedraw = 250 * time.Millisecond

// StartTicker calls tick until stop is closed, in a goroutine that wg
// waits for: every liveRedraw on a terminal (live), else every `every`
// but at least once a second (a log's "still" lines are checked as often).
func StartTicker(live bool, every time.Duration, stop <-chan struct{}, wg *sync.WaitGroup, tick func(now time.Time)) {
	period := min(every, time.Second)
	if live {
		period = liveRedraw
	}
	wg.Go(func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				tick(now)
			}
		}
	})
}
