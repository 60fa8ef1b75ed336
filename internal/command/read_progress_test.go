package command

import (
	"strings"
	"testing"
	"time"
)

// progressAt is a readProgress that never ticks by itself: the test moves
// its clock.
func progressAt(live bool) (*readProgress, *strings.Builder, time.Time) {
	var out strings.Builder
	start := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	return &readProgress{w: &out, live: live, start: start, next: readProgressEvery}, &out, start
}

// Without a terminal: nothing before 10 seconds, then a line every 10
// seconds, with the time left at the pace of the last 10 seconds (a burst
// at the start does not make it optimistic).
func TestReadProgressLinesInALog(t *testing.T) {
	p, out, start := progressAt(false)
	p.update(22, 1000) // the first burst, at once
	for s := 1; s <= 25; s++ {
		p.update(22+11*s, 1000) // then 11 a second
		p.tick(start.Add(time.Duration(s) * time.Second))
	}
	want := "read 132/1,000 projects, about 66 s left\n" + // 10 s: since the start, burst included
		"read 242/1,000 projects, about 69 s left\n" // 20 s: the last 10 s only
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// On a terminal: a status line redrawn from the first second, erased at the
// end; a short read shows nothing.
func TestReadProgressStatusLine(t *testing.T) {
	p, out, start := progressAt(true)
	p.update(5, 10)
	p.tick(start.Add(500 * time.Millisecond))
	if out.Len() != 0 {
		t.Errorf("shown before a second: %q", out.String())
	}
	p.tick(start.Add(1500 * time.Millisecond))
	p.update(10, 10)
	p.tick(start.Add(2 * time.Second)) // done: not redrawn
	p.stop = make(chan struct{})
	p.finish()
	want := "\r\x1b[Kread 5/10 projects, about 1 s left\r\x1b[K"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
