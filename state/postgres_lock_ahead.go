package state

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// A lock's own connection, opened ahead. Each lock is held on a connection of
// its own (a session's advisory locks end with it), and opening one (a server
// process's start) was most of what taking the lock cost: 100-300 ms on a
// loaded machine, between the plan's reads and the first change of an apply
// whose state is in Postgres, which locks only once its plan says which
// projects (docs/PERFORMANCE.md). A run that will lock opens it while it
// plans; the lock it takes next uses it, and Close closes it unused.

// dialed is the outcome of opening a lock's connection ahead.
type dialed struct {
	conn *pgx.Conn
	err  error
}

// lockAhead is a lock's connection being opened ahead.
type lockAhead struct {
	done   chan dialed // gets one value
	cancel context.CancelFunc
}

// DialLockAhead starts opening, in the background, the connection the next
// Lock or LockProjects takes its lock on. Calling it again before that lock
// does nothing.
func (p *Postgres) DialLockAhead() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ahead != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &lockAhead{done: make(chan dialed, 1), cancel: cancel}
	p.ahead = a
	go func() {
		conn, err := p.dialLock(ctx)
		a.done <- dialed{conn, err}
	}()
}

// takeAhead is the connection opened ahead, once it is open, or nil when
// none was, it failed (the lock then opens its own and says why if that
// fails too), or ctx ended first.
func (p *Postgres) takeAhead(ctx context.Context) *pgx.Conn {
	p.mu.Lock()
	a := p.ahead
	p.ahead = nil
	p.mu.Unlock()
	if a == nil {
		return nil
	}
	select {
	case d := <-a.done:
		a.cancel() // the connection outlives the context it was opened with
		if d.err != nil || d.conn.IsClosed() {
			return nil
		}
		return d.conn
	case <-ctx.Done():
		a.drop()
		return nil
	}
}

// drop stops opening the connection, and closes it: at once when it is
// open, or once it opens anyway.
func (a *lockAhead) drop() {
	a.cancel()
	closeDialed := func(d dialed) {
		if d.conn != nil {
			d.conn.Close(context.Background())
		}
	}
	select {
	case d := <-a.done:
		closeDialed(d)
	default:
		go func() { closeDialed(<-a.done) }()
	}
}
