package state

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// connectError says why the Postgres state could not be reached, and what
// to check, in one sentence: the driver's own error repeats the address
// and wraps the cause in three layers. It never quotes the connection
// string, which may hold a password.
func (p *Postgres) connectError(err error) error {
	where := p.Describe()
	var pgErr *pgconn.PgError
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.As(err, &pgErr) && (pgErr.Code == "28P01" || pgErr.Code == "28000"):
		return fmt.Errorf("the Postgres server refused user %q for %s: %s. Check the user and password of the state's connection string (or PGUSER and PGPASSWORD)",
			p.cfg.User, where, pgErr.Message)
	case errors.As(err, &pgErr) && pgErr.Code == "3D000":
		return fmt.Errorf("cannot reach %s: the database %q does not exist. Create it (createdb %s) or name another in the state's connection string",
			where, p.cfg.Database, p.cfg.Database)
	case errors.As(err, &pgErr):
		return fmt.Errorf("the Postgres server of %s refused the connection: %s (SQLSTATE %s)", where, pgErr.Message, pgErr.Code)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot reach %s: nothing listens there (connection refused). Is the Postgres server running, and are the host and port of the state's connection string right?", where)
	case errors.As(err, &dnsErr):
		return fmt.Errorf("cannot reach %s: the host name %q is not known. Check the host of the state's connection string", where, dnsErr.Name)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("cannot reach %s: no answer in time. Is the server up, and does a firewall let this machine reach it? (connect_timeout in the connection string sets the wait)", where)
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) && errors.Unwrap(connectErr) != nil {
		err = innermost(err)
	}
	return fmt.Errorf("cannot reach %s: %v", where, err)
}

// innermost is the last error in err's chain: the cause, without the
// layers that repeat the address.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
