// Package fetch reads the live endpoints a plan needs from the service: one
// list-endpoints call per project, plus the project's branches only when the
// state cannot say which branch a branch block means (branches.go). What it
// reads is the plan model's input, a *diff.Live; which projects to read is the
// model's answer (diff.ProjectsToRead), so a targeted or destroy plan reads
// what Build plans and nothing more.
//
// It only reads: it never changes anything in the service, prints nothing, and
// a project that cannot be read is a diagnostic naming its block and what to
// do (fetch_errors.go).
package fetch
