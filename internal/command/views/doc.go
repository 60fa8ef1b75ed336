// Package views shows an apply, as Terraform's internal/command/views does:
// apply reports what it does to its hooks as facts (apply.Hook), and this
// package words them, for people (hook_ui.go: a line when a step starts and
// one when it ends, a status line on a terminal, "still" lines in a log), for
// programs (hook_json.go: apply -json's events, one JSON object a line) and
// at the end (report.go: what was done, what failed, what is left). Import,
// generate, the state subcommands, validate and output are worded here too,
// from the facts their work returns (import.go, generate.go, state.go,
// state_push.go, validate.go, output.go), and what the emulator and the
// embedded sandbox say (emulator.go, sandbox.go). Apply
// chooses where each goes once a run starts (apply.go). Text from the service
// or a file is shown escaped (internal/textsafe).
package views
