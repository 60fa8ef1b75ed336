package command

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/english"
)

// readProgress tells how reading the live endpoints goes, for plans long
// enough to wonder about: "read 412/1,000 projects, about 50 s left". On a
// terminal it is a status line, redrawn, from the first second on and
// erased when the reading ends; elsewhere (a CI log) a line every
// readProgressEvery, so a plan shorter than that prints nothing.
type readProgress struct {
	w     io.Writer
	live  bool
	start time.Time

	mu      sync.Mutex
	done    int
	total   int
	samples []readSample // (time, done) at each tick, for the recent pace
	shown   bool         // the status line is on screen
	next    time.Duration

	stop chan struct{}
	wg   sync.WaitGroup
}

type readSample struct {
	at   time.Time
	done int
}

const (
	readProgressEvery = 10 * time.Second
	// readProgressAfter is when the status line appears on a terminal.
	readProgressAfter = time.Second
	// readPaceWindow is how far back the pace is measured: the first
	// requests go in a burst, then at the paced rate, which the estimate
	// should follow.
	readPaceWindow = 10 * time.Second
)

// startReadProgress starts telling the progress on w; live: w is a terminal.
func startReadProgress(w io.Writer, live bool) *readProgress {
	p := &readProgress{w: w, live: live, start: time.Now(), next: readProgressEvery, stop: make(chan struct{})}
	views.StartTicker(live, readProgressEvery, p.stop, &p.wg, p.tick)
	return p
}

// update records that done of total projects are read.
func (p *readProgress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = max(p.done, done), total
}

// finish stops the ticker and erases the status line.
func (p *readProgress) finish() {
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		io.WriteString(p.w, views.EraseLine)
		p.shown = false
	}
}

func (p *readProgress) tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.samples = append(p.samples, readSample{now, p.done})
	elapsed := now.Sub(p.start)
	switch {
	case p.total == 0 || p.done >= p.total:
	case p.live && elapsed >= readProgressAfter:
		io.WriteString(p.w, views.EraseLine+p.text(now))
		p.shown = true
	case !p.live && elapsed >= p.next:
		fmt.Fprintln(p.w, p.text(now))
		p.next = elapsed.Truncate(readProgressEvery) + readProgressEvery
	}
}

// text is "read 412/1,000 projects, about 50 s left", the estimate at the
// pace of the last readPaceWindow (or since the start, when shorter).
func (p *readProgress) text(now time.Time) string {
	s := fmt.Sprintf("read %s/%s projects", english.Thousands(int64(p.done)), english.Thousands(int64(p.total)))
	from := readSample{p.start, 0}
	for _, smp := range p.samples {
		if now.Sub(smp.at) < readPaceWindow {
			break
		}
		from = smp
	}
	if read := p.done - from.done; read > 0 {
		perProject := now.Sub(from.at) / time.Duration(read)
		s += ", about " + roughly(perProject*time.Duration(p.total-p.done)) + " left"
	}
	return s
}

// roughly is a duration as people say it when they estimate: "50 s",
// "3 min".
func roughly(d time.Duration) string {
	switch {
	case d < 2*time.Second:
		return "1 s"
	case d < 100*time.Second:
		return strconv.Itoa(int(d.Round(time.Second)/time.Second)) + " s"
	default:
		return strconv.Itoa(int(d.Round(time.Minute)/time.Minute)) + " min"
	}
}
