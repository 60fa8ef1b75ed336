package planfile

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of the plan file this
// neonform writes, format diff.FormatVersion; docs/plan-format.md describes it in
// words. It is strict: it lists every field, so a field added to Plan and
// not to the schema (and the docs) fails the tests, which check every plan
// they make against it (internal/planschema).
//
//go:embed plan.schema.json
var Schema []byte
