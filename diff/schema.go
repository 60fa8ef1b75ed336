package diff

import (
	_ "embed"
	"fmt"
)

// PlanSchema is the JSON Schema (draft 2020-12) of the plan file this
// neonform writes, format FormatVersion; docs/plan-format.md describes it in
// words. It is strict: it lists every field, so a field added to Plan and
// not to the schema (and the docs) fails the tests, which check every plan
// they make against it.
//
//go:embed plan.schema.json
var PlanSchema []byte

// SchemaCheck, when set, is called with every plan Build makes and every
// plan file neonform writes or prints, encoded; a plan it refuses is a bug,
// and panics. Only tests set it (with a JSON Schema validator of PlanSchema),
// so that every plan any test makes, in any package and in the CLI scenarios
// alike, is checked against the documented format; neonform itself never
// spends the time.
var SchemaCheck func(planJSON []byte) error

// checkSchema runs SchemaCheck on b, when it is set.
func checkSchema(b []byte) {
	if SchemaCheck == nil {
		return
	}
	if err := SchemaCheck(b); err != nil {
		panic(fmt.Sprintf("diff: a plan that does not match the plan file's schema (diff/plan.schema.json): %v\n%s", err, b))
	}
}
