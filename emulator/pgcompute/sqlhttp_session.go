package pgcompute

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/pgserver"
)

// errInterrupted answers a request whose compute was interrupted while it ran.
var errInterrupted = &emulator.ConnectError{Code: "57P01", Message: "terminating connection: the compute was restarted, suspended, disabled or deleted while the query ran; send it again (a suspended compute wakes)"}

// sqlSession is a request's session on the compute and the connection serving it,
// kept (sqlhttp_pool.go) or new.
type sqlSession struct {
	sess *emulator.Session
	key  poolKey
	pg   *pgconn.PgConn

	mu sync.Mutex
	// backend is the connection the compute's interruption closes: the query in
	// flight fails. nil once the connection is back in the pool, which closes it then.
	backend net.Conn
	dropped bool
}

// drop is the session's end when the compute is interrupted.
func (s *sqlSession) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped = true
	if s.backend != nil {
		s.backend.Close()
	}
}

// hold makes conn the session's connection, closed at once if the compute was
// interrupted already.
func (s *sqlSession) hold(conn net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backend = conn
	if s.dropped {
		conn.Close()
	}
}

// interrupted reports whether the compute dropped the session.
func (s *sqlSession) interrupted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// openSQL opens a session on the compute and gives it a connection to its
// database: a kept one of the same run, database and role, or a new one.
func (p *Proxy) openSQL(ctx context.Context, t sqlTarget) (*sqlSession, error) {
	s := &sqlSession{}
	sess, err := p.emu.OpenSession(t.endpointID, t.user, t.password, t.db, s.drop)
	if err != nil {
		return nil, err
	}
	s.sess, s.key = sess, keyOf(sess, t.options)
	if sess.StartsIn > 0 {
		time.Sleep(sess.StartsIn) // the compute wakes, as for a Postgres client
	}
	if s.pg = p.pool.take(ctx, s.key); s.pg != nil {
		s.hold(s.pg.Conn())
		return s, nil
	}
	conn, err := p.dial(sess, nil, t.options)
	if err != nil {
		sess.Close()
		return nil, fmt.Errorf("the compute's Postgres could not be reached: %w", err)
	}
	s.hold(conn)
	if s.pg, err = startedConn(conn, p.cluster.Dir()); err != nil {
		conn.Close()
		sess.Close()
		if s.interrupted() {
			err = errInterrupted
		}
		return nil, err
	}
	return s, nil
}

// end closes the session. The connection goes back to the pool when it can serve
// again: the request ran to its end (reusable: no error, or one Postgres answered
// in full), outside a transaction, and its compute was not interrupted. A request
// given up on never leaves its connection, which a late cancel could hit.
func (s *sqlSession) end(p *Proxy, reusable bool) {
	s.mu.Lock()
	keep := reusable && !s.dropped && !s.pg.IsClosed() && s.pg.TxStatus() == 'I'
	if keep {
		s.backend = nil
		p.pool.put(s.key, s.pg)
	}
	s.mu.Unlock()
	if !keep {
		closeAll([]*pgconn.PgConn{s.pg})
	}
	s.sess.Close()
}

// cancelDeadline is how long a query given up on has to end after its cancel
// request before its connection is cut.
const cancelDeadline = 5 * time.Second

// startedConn reads the server's answer to the startup dial sent, up to its first
// ReadyForQuery, and makes a pgconn connection of it. The server's directory
// (its socket's) is where pgconn sends a cancel request when the request's context
// ends (its client went away), as Postgres goes on with a query otherwise.
func startedConn(conn net.Conn, serverDir string) (*pgconn.PgConn, error) {
	fe := pgproto3.NewFrontend(conn, conn)
	var d net.Dialer
	hc := &pgconn.HijackedConn{Conn: conn, ParameterStatuses: map[string]string{}, Frontend: fe, Config: &pgconn.Config{
		Host: serverDir, Port: pgserver.Port, DialFunc: d.DialContext,
		BuildFrontend: func(r io.Reader, w io.Writer) *pgproto3.Frontend { return pgproto3.NewFrontend(r, w) },
		BuildContextWatcherHandler: func(c *pgconn.PgConn) ctxwatch.Handler {
			return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelDeadline}
		},
	}}
	for {
		msg, err := fe.Receive()
		if err != nil {
			return nil, err
		}
		switch m := msg.(type) {
		case *pgproto3.ParameterStatus:
			hc.ParameterStatuses[m.Name] = m.Value
		case *pgproto3.BackendKeyData:
			hc.PID, hc.SecretKey = m.ProcessID, bytes.Clone(m.SecretKey)
		case *pgproto3.ErrorResponse:
			return nil, pgconn.ErrorResponseToPgError(m)
		case *pgproto3.ReadyForQuery:
			hc.TxStatus = m.TxStatus
			return pgconn.Construct(hc)
		}
	}
}
