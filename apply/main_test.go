package apply

import (
	"os"
	"testing"

	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/internal/planschema"
	"github.com/neonform/neonform/internal/schemacheck"
)

func TestMain(m *testing.M) {
	// Every plan these tests make is checked against the plan file's schema.
	if !planschema.Benchmarking() {
		schemacheck.Plan = planschema.MustChecker(planfile.Schema)
	}
	code := m.Run()
	pgtest.Stop() // the Postgres server the lock tests started, if any
	os.Exit(code)
}
