package fetch

import (
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/planschema"
)

// Every plan these tests build is checked against the plan file's schema.
func init() {
	if !planschema.Benchmarking() {
		diff.SchemaCheck = planschema.MustChecker(diff.PlanSchema)
	}
}
