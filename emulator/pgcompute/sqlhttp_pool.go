package pgcompute

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/neonform/neonform/emulator"
)

// SQL over HTTP keeps the Postgres connections of its requests between them, as
// the service's proxy pools them: starting a backend costs far more than a query
// (docs/PERFORMANCE.md). A request still opens and closes a session of its own
// (which wakes, refuses and counts as before); only the connection behind it is
// kept, idle, for the next request of the same run of the compute, database and
// role. A connection is reset (DISCARD ALL) before it serves again, so a request
// sees nothing an earlier one left, and closes when the compute's run ends (a
// restart, a suspend, a change of its settings, its deletion: RunEnded), when it
// has been idle for poolIdleTimeout, or when the pool is full.

// The pool's bounds: idle connections per key and in all, how long one waits, and
// how often the waiting ones are looked at while there are some.
const (
	poolIdlePerKey  = 4
	poolIdleMax     = 32
	poolIdleTimeout = 5 * time.Minute
	poolSweepEvery  = time.Minute
)

// poolKey is what a connection was opened for: a connection serves only a
// session of the same run (the same settings and branch) as the same role.
type poolKey struct {
	endpointID string
	run        uint64
	branchID   string
	database   string
	role       string
	readOnly   bool
	options    string
}

func keyOf(sess *emulator.Session, options string) poolKey {
	return poolKey{endpointID: sess.EndpointID, run: sess.Run, branchID: sess.BranchID,
		database: sess.Database, role: sess.Role, readOnly: sess.ReadOnly, options: options}
}

// idleConn is a kept connection and when it was put back.
type idleConn struct {
	pg    *pgconn.PgConn
	since time.Time
}

// connPool holds the idle connections, the most recent last.
type connPool struct {
	mu     sync.Mutex
	idle   map[poolKey][]idleConn
	n      int
	closed bool
	sweep  *time.Timer // runs while connections wait
}

// take returns an idle connection for key, reset and alive, or nil.
func (cp *connPool) take(ctx context.Context, key poolKey) *pgconn.PgConn {
	for {
		cp.mu.Lock()
		stale := cp.expireLocked(time.Now())
		list := cp.idle[key]
		var pg *pgconn.PgConn
		if len(list) > 0 {
			pg = list[len(list)-1].pg
			cp.removeLocked(key, len(list)-1)
		}
		cp.mu.Unlock()
		closeLater(stale)
		if pg == nil {
			return nil
		}
		if pg.Exec(ctx, "DISCARD ALL").Close() == nil {
			return pg
		}
		pg.Close(ctx) // its backend is gone (terminated, or the cluster stopped)
	}
}

// put keeps pg for key, or closes it when the pool is full or closed.
func (cp *connPool) put(key poolKey, pg *pgconn.PgConn) {
	cp.mu.Lock()
	stale := cp.expireLocked(time.Now())
	keep := !cp.closed && cp.n < poolIdleMax && len(cp.idle[key]) < poolIdlePerKey
	if keep {
		if cp.idle == nil {
			cp.idle = map[poolKey][]idleConn{}
		}
		cp.idle[key] = append(cp.idle[key], idleConn{pg, time.Now()})
		cp.n++
		if cp.sweep == nil {
			cp.sweep = time.AfterFunc(poolSweepEvery, cp.expire)
		}
	}
	cp.mu.Unlock()
	if !keep {
		stale = append(stale, pg)
	}
	closeLater(stale) // the caller may hold its session's lock
}

// takeWhere takes out the idle connections whose key matches, or all (match
// nil), for the caller to close.
func (cp *connPool) takeWhere(match func(poolKey) bool) []*pgconn.PgConn {
	var out []*pgconn.PgConn
	cp.mu.Lock()
	for k, list := range cp.idle {
		if match != nil && !match(k) {
			continue
		}
		for _, c := range list {
			out = append(out, c.pg)
		}
		cp.n -= len(list)
		delete(cp.idle, k)
	}
	cp.mu.Unlock()
	return out
}

// expire closes the connections idle for too long, and looks again later while
// some wait.
func (cp *connPool) expire() {
	cp.mu.Lock()
	stale := cp.expireLocked(time.Now())
	if cp.n > 0 && !cp.closed {
		cp.sweep.Reset(poolSweepEvery)
	} else {
		cp.sweep = nil
	}
	cp.mu.Unlock()
	closeAll(stale)
}

// expireLocked takes out the connections idle since before poolIdleTimeout, for
// the caller to close. Caller holds cp.mu.
func (cp *connPool) expireLocked(now time.Time) []*pgconn.PgConn {
	var out []*pgconn.PgConn
	for k, list := range cp.idle {
		for len(list) > 0 && now.Sub(list[0].since) > poolIdleTimeout {
			out = append(out, list[0].pg)
			list = list[1:]
			cp.n--
		}
		if len(list) == 0 {
			delete(cp.idle, k)
		} else {
			cp.idle[k] = list
		}
	}
	return out
}

// removeLocked takes the i-th idle connection of key out. Caller holds cp.mu.
func (cp *connPool) removeLocked(key poolKey, i int) {
	list := cp.idle[key]
	list = append(list[:i], list[i+1:]...)
	if len(list) == 0 {
		delete(cp.idle, key)
	} else {
		cp.idle[key] = list
	}
	cp.n--
}

// shut closes every idle connection and keeps none from now on.
func (cp *connPool) shut() {
	cp.mu.Lock()
	cp.closed = true
	if cp.sweep != nil {
		cp.sweep.Stop()
	}
	cp.mu.Unlock()
	closeAll(cp.takeWhere(nil))
}

// closeAll closes connections, each with a short wait for its Terminate message.
func closeAll(conns []*pgconn.PgConn) {
	for _, pg := range conns {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		pg.Close(ctx)
		cancel()
	}
}

// closeLater closes connections without waiting.
func closeLater(conns []*pgconn.PgConn) {
	if len(conns) > 0 {
		go closeAll(conns)
	}
}

var _ emulator.PooledPostgres = (*Proxy)(nil)

// RunEnded implements emulator.PooledPostgres: the compute's kept connections close.
func (p *Proxy) RunEnded(endpointID string) {
	closeLater(p.pool.takeWhere(func(k poolKey) bool { return k.endpointID == endpointID }))
}
