package planfile

import (
	_ "embed"
	"fmt"

	"github.com/neonform/neonform/diff"
)

// Schema is the JSON Schema (draft 2020-12) of the plan file this
// neonform writes, format diff.FormatVersion; docs/plan-format.md describes it in
// words. It is strict: it lists every field, so a field added to Plan and
// not to the schema (and the docs) fails the tests, which check every plan
// they make against it.
//
//go:embed plan.schema.json
var Schema []byte

// SchemaCheck, when set, is called with every plan file neonform writes or
// prints and every plan handed to CheckSchema, encoded; a plan it refuses is
// a bug, and panics. Only tests set it (with a JSON Schema validator of
// Schema), so that every plan any test makes, in any package and in the CLI
// scenarios alike, is checked against the documented format; neonform itself
// never spends the time.
var SchemaCheck func(planJSON []byte) error

// checkSchema runs SchemaCheck on b, when it is set.
func checkSchema(b []byte) {
	if SchemaCheck == nil {
		return
	}
	if err := SchemaCheck(b); err != nil {
		panic(fmt.Sprintf("diff: a plan that does not match the plan file's schema (diff/planfile/plan.schema.json): %v\n%s", err, b))
	}
}

// CheckSchema has SchemaCheck see p as the plan file would hold it. The
// callers of diff.Build hand it every plan they make, so that a plan a test
// makes is checked even when it is never written; without SchemaCheck
// (neonform itself) it does nothing.
func CheckSchema(p *diff.Plan) {
	if SchemaCheck != nil {
		_, _ = encode(p)
	}
}
