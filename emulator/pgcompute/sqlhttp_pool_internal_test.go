package pgcompute

import (
	"testing"
	"time"
)

// A connection idle for longer than poolIdleTimeout is taken out to close; a more
// recent one of the same key stays.
func TestPoolExpiresOnlyLongIdleConnections(t *testing.T) {
	now := time.Now()
	k := poolKey{endpointID: "ep-a", database: "neondb", role: "r"}
	cp := &connPool{idle: map[poolKey][]idleConn{k: {
		{since: now.Add(-poolIdleTimeout - time.Second)},
		{since: now.Add(-time.Second)},
	}}, n: 2}
	if out := cp.expireLocked(now); len(out) != 1 {
		t.Errorf("expired %d connections, want the one idle for longer than %v", len(out), poolIdleTimeout)
	}
	if cp.n != 1 || len(cp.idle[k]) != 1 || cp.idle[k][0].since != now.Add(-time.Second) {
		t.Errorf("left %d (%v), want the recent one", cp.n, cp.idle[k])
	}
}
