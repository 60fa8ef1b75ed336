// Package config turns neonform's HCL files into the desired model, a Config: the
// projects, branches and computes a user wants, with variables and locals evaluated,
// defaults filled in, and every rule that needs no network checked.
//
// Load reads every *.hcl file of a directory; the language is described in
// docs/configuration.md. Each block has an
// explicit hcl.BodySchema and is decoded one attribute at a time, so every message
// is written here: a short summary, a detail that says how to fix it, and the
// source range of the offending expression. All problems come back together as
// diag.Diagnostics (internal/diag; hcl's, converted at the exported functions),
// never flattened into a string, so the CLI can print them with their source lines.
//
// What it must not do: talk to the service, read state, or print. Anything that
// needs live data (does the project exist, is the compute active) is the planner's
// job; it gets plain Go values here, with source ranges kept so its errors can
// still point at the file. Values of the model are never HCL expressions or cty
// values. Size rules come from package sizing, the one source of truth for them.
//
// Format (format.go) gives the canonical layout of a file, for the fmt command.
package config
