package state

import (
	"testing"

	"github.com/neonform/neonform/internal/pgtest"
)

// postgresDSN is the server the Postgres backend is tested against (see pgtest).
func postgresDSN(t testing.TB) string { return pgtest.DSN(t) }

func stopTestPostgres() { pgtest.Stop() }
