package api

import (
	"sync"
	"time"
)

// Every poll of operations is a request out of the account's budget
// (docs/service.md, Rate limits and waiting), which a large apply shares with
// its own changes. So the client polls when an operation is expected to be
// over, not at a fixed interval: it learns how long each kind of operation
// takes from the finished ones it reads, first poll when the operations it
// waits for should be over, and, if they are not, backs off from there.

// learnWeight is the weight of the newest duration in the running average:
// the service's times drift over a run, and the newest say most.
const learnWeight = 0.25

// firstGuess is how long an operation is expected to take before the client
// read one that finished (or Options.PollInterval, if shorter): the vendor's
// SDK polls every second.
const firstGuess = time.Second

// minPollGap is the shortest pause after a poll that found operations still
// running, unless Options.PollInterval is shorter.
const minPollGap = 50 * time.Millisecond

// pollMargin is added to an expected wait, as a share of it: a poll that
// comes a little late costs a little time, one that comes early a request.
const pollMargin = 1.0 / 32

// durations is what the client learned of how long operations take: those
// of this run (the ones it waited for), and all the others it read (a
// project's history, someone else's), which count only until the run's own
// say otherwise.
type durations struct {
	mu    sync.Mutex
	ours  map[string]bool // operation ids this run waits for
	seen  map[string]bool // operation ids already counted
	own   average
	other average
	// guess is what an operation is expected to take before anything is
	// known: firstGuess.
	guess time.Duration
}

// average is a running average of durations, by action and over all.
type average struct {
	byAction map[OperationAction]time.Duration
	all      time.Duration
	n        int
}

func (a *average) add(action OperationAction, d time.Duration) {
	if a.byAction == nil {
		a.byAction = map[OperationAction]time.Duration{}
	}
	a.byAction[action] = blend(a.byAction[action], d)
	a.all = blend(a.all, d)
	a.n++
}

func blend(old, d time.Duration) time.Duration {
	if old == 0 {
		return d
	}
	return old + time.Duration(learnWeight*float64(d-old))
}

func newDurations(guess time.Duration) *durations {
	return &durations{ours: map[string]bool{}, seen: map[string]bool{}, guess: guess}
}

// mine marks ops as this run's own.
func (d *durations) mine(ops []Operation) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, op := range ops {
		d.ours[op.ID] = true
	}
}

// learn counts the finished operations of a page, each once, oldest first
// (a page is newest first), as long as the service says they ran.
func (d *durations) learn(ops []Operation) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := len(ops) - 1; i >= 0; i-- {
		op := &ops[i]
		if op.Status != OperationFinished || op.TotalDurationMs < 0 || d.seen[op.ID] {
			continue
		}
		d.seen[op.ID] = true
		took := time.Duration(op.TotalDurationMs) * time.Millisecond
		if d.ours[op.ID] {
			d.own.add(op.Action, took)
		} else {
			d.other.add(op.Action, took)
		}
	}
}

// expect is how long an operation of this action is expected to run: as the
// run's own of that action took, else any of the run's own, else what others
// of the action took, else any other, else the guess.
func (d *durations) expect(action OperationAction) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range []*average{&d.own, &d.other} {
		if t, ok := a.byAction[action]; ok {
			return t
		}
		if a.n > 0 {
			return a.all
		}
	}
	return d.guess
}

// remaining is how long the operations still running are expected to run,
// one after another (a project runs one chain at a time): for one that says
// how long it has run, what is left of its expected time.
func (d *durations) remaining(ops []Operation) time.Duration {
	var left time.Duration
	for _, op := range ops {
		if op.Status.Terminal() {
			continue
		}
		ran := time.Duration(0)
		if op.Status == OperationRunning {
			ran = time.Duration(op.TotalDurationMs) * time.Millisecond
		}
		left += max(0, d.expect(op.Action)-ran)
	}
	return left
}

// ExpectedDuration is how long an operation of this action is expected to
// run, from what the client has read so far (a second, or
// Options.PollInterval if shorter, before it read any finished one).
func (c *Client) ExpectedDuration(action OperationAction) time.Duration {
	return c.durations.expect(action)
}

// schedule is when to poll the operations of one wait: when they are
// expected to be over (again each time one of them ends), and, when they are
// running later than expected, after pauses that double from an eighth of
// their expected time; never more than Options.PollInterval apart.
type schedule struct {
	c      *Client
	misses int // polls since the last one that found an operation ended
	left   int // operations still running at the last poll; -1 before it
}

func (c *Client) newSchedule() *schedule { return &schedule{c: c, left: -1} }

// next is the pause before the next poll of ops, the operations as the last
// poll (or the call that started them) found them.
func (s *schedule) next(ops []Operation) time.Duration {
	d := s.c.durations
	left := 0
	var whole time.Duration
	for _, op := range ops {
		if !op.Status.Terminal() {
			left++
			whole += d.expect(op.Action)
		}
	}
	ended := s.left < 0 || left < s.left
	s.left = left
	if ended {
		// On time so far: when the rest is expected to be over (at once,
		// for operations that take no time, as an emulator's may).
		s.misses = 0
		rest := d.remaining(ops)
		return min(rest+time.Duration(pollMargin*float64(rest)), s.c.poll)
	}
	// Later than expected: back off, from a small share of what they were
	// expected to take, since they may be over any moment.
	gap := (whole / 8) << min(s.misses, 16)
	s.misses++
	return min(max(gap, min(minPollGap, s.c.poll)), s.c.poll)
}
