package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestNeedRaisesTheManagedLimitWithinItsBounds(t *testing.T) {
	t.Cleanup(func() {
		managed, now = false, 0
		debug.SetMemoryLimit(math.MaxInt64)
	})
	current := func() int64 { return debug.SetMemoryLimit(-1) }

	Need(100 << 20) // not managed: the runtime's limit is left alone
	if Limit() != 0 || current() != math.MaxInt64 {
		t.Fatalf("Need changed an unmanaged limit: %d, runtime %d", Limit(), current())
	}

	Manage(256 << 20)
	if current() != 256<<20 {
		t.Fatalf("Manage set %d", current())
	}
	Need(100 << 20) // twice 100 MiB is less than 256 MiB
	if current() != 256<<20 {
		t.Errorf("Need(100 MiB) moved the limit to %d", current())
	}
	Need(200 << 20)
	if current() != 400<<20 || Limit() != 400<<20 {
		t.Errorf("Need(200 MiB) set %d, want 400 MiB", current())
	}
	Need(150 << 20) // never lowered
	if current() != 400<<20 {
		t.Errorf("Need(150 MiB) lowered the limit to %d", current())
	}
	Need(1 << 30)
	if current() != MaxLimit {
		t.Errorf("Need(1 GiB) set %d, want the ceiling %d", current(), MaxLimit)
	}
}
