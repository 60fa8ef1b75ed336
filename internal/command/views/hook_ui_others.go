package views

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/textsafe"
)

// Before a project's first change, apply waits until the project runs no
// operation (someone else's: a console click, another tool, a compute
// scaling to zero), so that the change is not refused with 423. That wait
// can last as long as those operations do, so it is said like a step: a
// line when it starts, on a terminal in the status line, elsewhere a line
// every StillEvery, and a line when it ends.

// othersWait is a project whose operations, started outside this run, apply
// waits for.
type othersWait struct {
	project string // its label, as the configuration names it
	running int    // operations still running at the last poll
	since   time.Time
	still   time.Duration // the next line is due at this age
}

// waiting is what the wait is for: "2 operations on project shop started
// outside this run".
func (w *othersWait) waiting() string {
	return fmt.Sprintf("waiting for %s on project %s started outside this run", english.Plural(w.running, "operation", "operations"), w.project)
}

// othersRunning says that n operations started outside this run still run in
// project id (label), which apply waits for before changing it.
func (p *progress) othersRunning(id, label string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w := p.others[id]; w != nil {
		w.running = n
		return
	}
	w := &othersWait{project: label, running: n, since: time.Now(), still: p.stillEvery}
	p.others[id] = w
	p.line(w.waiting() + "...")
}

// othersDone ends the wait for project id, if there was one.
func (p *progress) othersDone(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.others[id]
	if w == nil {
		return
	}
	delete(p.others, id)
	p.line(fmt.Sprintf("the operations on project %s started outside this run are over after %s", w.project, formatElapsed(time.Since(w.since))))
}

// othersStill prints a line for each wait that has lasted another
// StillEvery: for a log, where no status line shows it. Caller holds p.mu.
func (p *progress) othersStill() {
	for _, id := range slices.Sorted(maps.Keys(p.others)) {
		w := p.others[id]
		if age := time.Since(w.since); age >= w.still {
			fmt.Fprintf(p.w, "%s: %s\n", textsafe.Terminal(w.waiting()), age.Round(time.Second))
			w.still = age + p.stillEvery
		}
	}
}

// othersStatus is the waits' part of the status line. Caller holds p.mu.
func (p *progress) othersStatus() []string {
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(p.others)) {
		w := p.others[id]
		parts = append(parts, fmt.Sprintf("%s: %s", w.waiting(), formatElapsed(time.Since(w.since))))
	}
	return parts
}
