// Package planfile reads and writes the plan file (docs/plan-format.md): the
// plan model's diff.Plan as indented JSON, written atomically and readable by
// its owner only (WriteFile), read back with every refusal a hand-edited,
// truncated, foreign or newer file deserves (ReadFile); the printed JSON copy
// with the values of sensitive variables hidden (RenderJSON, and
// HiddenApplied for a state entry); and the file's JSON Schema (Schema), which
// every plan the tests make is checked against (internal/planschema, in the
// tests alone).
//
// It imports the model and nothing imports it back: diff.Build makes a plan
// and leaves encoding to its caller. It imports no view: a reason is recorded
// as its kind and facts, and every view words it (diff/view.ReasonWords), so
// rewording a reason is no change of the format.
package planfile
