// Package memlimit keeps a neonform command's soft memory limit (Go's
// GOMEMLIMIT): how much the heap may grow before the garbage collector
// works harder, whatever GOGC says.
//
// One limit does not fit both of a command's appetites. A plan of 100,000
// computes holds about 150 MB at its peak, so a limit of 256 MiB keeps it
// under 300 MB of memory at little cost in CPU. But hcl holds up to 400
// bytes a token while it parses a file, and a file near the limits of what
// neonform reads (2,000,000 tokens) under such a limit would have the
// collector running all the time: 4 times the CPU (docs/PERFORMANCE.md). So
// a command starts at the plan's limit (Manage), and the configuration
// loader raises it for the file it is about to parse (Need).
package memlimit

import (
	"runtime/debug"
	"sync"
)

// MaxLimit is the most Need raises the limit to, so that the largest
// configuration neonform reads stays under 1 GB.
const MaxLimit = 768 << 20

var (
	mu      sync.Mutex
	managed bool // false: a test binary, or GOMEMLIMIT set
	now     int64
)

// Manage sets the soft memory limit to limit bytes, and lets Need raise it.
func Manage(limit int64) {
	mu.Lock()
	defer mu.Unlock()
	managed, now = true, limit
	debug.SetMemoryLimit(limit)
}

// Need makes room for work that holds live bytes: when Manage set the
// limit, it raises it to twice live (what the work holds, and as much
// garbage before the collector runs), up to MaxLimit. It never lowers the
// limit: the work may keep some of what it made.
func Need(live int64) {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return
	}
	if want := min(2*max(live, 0), MaxLimit); want > now {
		now = want
		debug.SetMemoryLimit(want)
	}
}

// Limit is the soft limit Manage and Need set, or 0 when neither did.
func Limit() int64 {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return 0
	}
	return now
}
