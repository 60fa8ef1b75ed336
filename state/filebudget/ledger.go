package filebudget

import (
	"slices"
	"time"

	"github.com/neonform/neonform/api"
)

// stale is how long a request sent and never answered counts: a run that
// died while it was in flight frees its share after that.
const stale = 2 * time.Minute

// ledger is what the file holds: the account's requests of the last minute
// and its 429s, times in microseconds since 1970 (runs on one machine share
// its clock). The rule is the client's own (api.Ledger, api.Limits).
type ledger struct {
	Spent       []spent `json:"spent"`
	PausedUntil int64   `json:"paused_until,omitempty"`
	Slowdowns   int     `json:"slowdowns,omitempty"`    // 429s in a row, each halving the limits
	SlowedUntil int64   `json:"slowed_until,omitempty"` // when the limits are whole again
	Throttles   int64   `json:"throttles,omitempty"`    // 429s ever recorded
}

// spent is one request: when it was sent and, once it came back, answered.
type spent struct {
	ID       int64  `json:"id"`
	Route    string `json:"route"`
	Sent     int64  `json:"sent"`
	Answered int64  `json:"answered,omitempty"`
}

// prune drops the requests that count in no window any more.
func (l *ledger) prune(limits api.Limits, now time.Time) {
	minute, _ := limits.Windows()
	from, staleFrom := now.Add(-minute).UnixMicro(), now.Add(-stale).UnixMicro()
	l.Spent = slices.DeleteFunc(l.Spent, func(s spent) bool {
		if s.Answered == 0 {
			return s.Sent <= staleFrom
		}
		return s.Answered <= from
	})
}

// current is the limits in force at now: halved by the 429s until they are
// whole again.
func (l *ledger) current(limits api.Limits, now time.Time) api.Limits {
	if l.Slowdowns > 0 && l.SlowedUntil > now.UnixMicro() {
		return limits.Slowed(l.Slowdowns)
	}
	return limits
}

// wait is how long until a request on route fits both windows and the pause
// (0: now), and how many the minute has left.
func (l *ledger) wait(route string, limits api.Limits, now time.Time) (time.Duration, int) {
	lim := l.current(limits, now)
	minute, second := lim.Windows()
	wm, held := l.window("", lim.PerMinute, minute, now)
	wr, _ := l.window(route, lim.PerRoute, second, now)
	paused := time.Duration(l.PausedUntil-now.UnixMicro()) * time.Microsecond
	return max(wm, wr, paused, 0), lim.PerMinute - held
}

// window is how long until one more request fits the window of span ending
// at now on route (all routes: "") under limit, and how many it holds. A
// request unanswered counts until it is; when room needs one of those to
// leave, it leaves a span after its answer at the soonest.
func (l *ledger) window(route string, limit int, span time.Duration, now time.Time) (time.Duration, int) {
	from := now.Add(-span).UnixMicro()
	unanswered := 0
	var answered []int64
	for _, s := range l.Spent {
		switch {
		case route != "" && s.Route != route:
		case s.Answered == 0:
			unanswered++
		case s.Answered > from:
			answered = append(answered, s.Answered)
		}
	}
	held := unanswered + len(answered)
	over := held - limit + 1 // how many must leave
	switch {
	case over <= 0:
		return 0, held
	case over <= len(answered):
		slices.Sort(answered)
		return time.Duration(answered[over-1]-from) * time.Microsecond, held
	}
	return span, held
}

// spend records a request on route sent now.
func (l *ledger) spend(route string, now time.Time) int64 {
	id := newID()
	l.Spent = append(l.Spent, spent{ID: id, Route: route, Sent: now.UnixMicro()})
	return id
}

// answered records that request id came back now.
func (l *ledger) answered(id int64, now time.Time) {
	for i := range l.Spent {
		if l.Spent[i].ID == id {
			l.Spent[i].Answered = now.UnixMicro()
			return
		}
	}
}

// throttled records a 429 that asked for wait: everyone pauses that long,
// and the limits halve until a minute after the pause.
func (l *ledger) throttled(wait, minute time.Duration, now time.Time) {
	until := now.Add(wait).UnixMicro()
	l.PausedUntil = max(l.PausedUntil, until)
	if l.SlowedUntil < now.UnixMicro() {
		l.Slowdowns = 1
	} else {
		l.Slowdowns++
	}
	l.SlowedUntil = max(l.SlowedUntil, until+minute.Microseconds())
	l.Throttles++
}
