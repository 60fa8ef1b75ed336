package apply

import (
	"os"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/internal/planschema"
)

func TestMain(m *testing.M) {
	// Every plan these tests make is checked against the plan file's schema.
	if !planschema.Benchmarking() {
		diff.SchemaCheck = planschema.MustChecker(diff.PlanSchema)
	}
	code := m.Run()
	pgtest.Stop() // the Postgres server the lock tests started, if any
	os.Exit(code)
}
