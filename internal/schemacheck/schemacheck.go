// Package schemacheck is where the tests switch on the check of every plan
// file against its JSON Schema: a test's TestMain sets Plan (with
// internal/planschema's validator of planfile.Schema), and diff/planfile
// hands Run every plan it encodes. neonform itself never sets it, so it never
// spends the time, and the hook is not part of any package's public API
// (internal/ cannot be imported from outside this module).
package schemacheck

import "fmt"

// Plan, when set, validates one plan file's JSON; a plan it refuses is a bug
// in neonform, and Run panics.
var Plan func(planJSON []byte) error

// Enabled reports whether a test switched the check on.
func Enabled() bool { return Plan != nil }

// Run checks b, a plan file's bytes, when a test switched the check on.
func Run(b []byte) {
	if Plan == nil {
		return
	}
	if err := Plan(b); err != nil {
		panic(fmt.Sprintf("a plan that does not match the plan file's schema (diff/planfile/plan.schema.json): %v\n%s", err, b))
	}
}
