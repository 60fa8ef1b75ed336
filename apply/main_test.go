package apply

import (
	"os"
	"testing"

	"github.com/neonform/neonform/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop() // the Postgres server the lock tests started, if any
	os.Exit(code)
}
