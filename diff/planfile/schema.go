package planfile

import (
	_ "embed"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/schemacheck"
)

// Schema is the JSON Schema (draft 2020-12) of the plan file this
// neonform writes, format diff.FormatVersion; docs/plan-format.md describes it in
// words. It is strict: it lists every field, so a field added to Plan and
// not to the schema (and the docs) fails the tests, which check every plan
// they make against it.
//
//go:embed plan.schema.json
var Schema []byte

// CheckSchema has the tests' schema check (internal/schemacheck) see p as
// the plan file would hold it. The callers of diff.Build hand it every plan
// they make, so that a plan a test makes is checked even when it is never
// written; in neonform itself the check is off and this does nothing.
func CheckSchema(p *diff.Plan) {
	if schemacheck.Enabled() {
		_, _ = encode(p)
	}
}
