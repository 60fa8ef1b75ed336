package state

import (
	"context"
	"testing"
)

// peekAhead waits until the connection opened ahead is open, and leaves it
// for the lock to take.
func peekAhead(t *testing.T, p *Postgres) dialed {
	t.Helper()
	d := <-p.ahead.done
	p.ahead.done <- d
	if d.err != nil {
		t.Fatal(d.err)
	}
	return d
}

// The lock taken after DialLockAhead is held on the connection opened ahead,
// not on one it opens then; the next lock opens its own again.
func TestPostgresLockTakesTheConnectionOpenedAhead(t *testing.T) {
	ctx := WithOperation(context.Background(), "apply")
	p, _, _ := newTestPostgres(t)
	p.DialLockAhead()
	d := peekAhead(t, p)
	unlock, err := p.LockProjects(ctx, "alice", []string{"pa"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.held.pid, d.conn.PgConn().PID(); got != want {
		t.Errorf("the lock is held by session %d, want %d: the connection opened ahead", got, want)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if !d.conn.IsClosed() {
		t.Error("the connection opened ahead outlives the lock it held")
	}
	unlock, err = p.Lock(ctx, "alice")
	if err != nil {
		t.Fatalf("the next lock, with nothing opened ahead: %v", err)
	}
	if p.held.pid == d.conn.PgConn().PID() {
		t.Error("the next lock reused a closed connection")
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
}

// A connection opened ahead that no lock took is closed with the backend.
func TestPostgresCloseClosesTheConnectionOpenedAhead(t *testing.T) {
	p, _, _ := newTestPostgres(t)
	p.DialLockAhead()
	d := peekAhead(t, p)
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !d.conn.IsClosed() {
		t.Error("Close left the connection opened ahead open")
	}
}
