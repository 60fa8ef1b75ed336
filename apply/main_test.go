package apply

import (
	"os"
	"testing"

	"github.com/neonform/neonform/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop() // the Postgres servers the lock tests and the real-Postgres walks started, if any
	os.Exit(code)
}
