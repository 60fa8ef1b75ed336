// Package apply carries out a diff.Plan against the service: it takes the
// state lock, refuses a plan that no longer matches the state or the live
// endpoints of a project it changes (stale.go: the state entries the plan
// recorded for each project, so a write in another project leaves it
// current), then runs the plan's steps and writes the state after every one.
//
// How the steps run, and why:
//
//   - One mutation at a time per project, each waiting until the operations
//     it started are terminal, because the service runs one operation chain
//     per project and answers 423 to a mutation while one runs. Projects run
//     in parallel through the client's one rate limiter: as many as keep its
//     budget busy (budget.go), at most Options.Parallelism.
//   - Before a project's first mutation, apply waits until the project has no
//     running operation, so it does not provoke a 423 itself.
//   - Creates are idempotent: every create sets the endpoint's name, and when
//     its outcome is unknown (api.IsAmbiguous) apply lists the branch and
//     adopts the endpoint of that name and type that was not there when the
//     apply started, instead of creating a second one. An update with an
//     unknown outcome is checked by reading the endpoint back; a delete that
//     finds the endpoint already gone (204 or 404) is done.
//   - The state is written after every step that succeeded, right after its
//     call (before waiting for its operations), each write bumping the
//     serial; steps of several projects that end together share one write
//     (record.go). So a crash at any point leaves a state that the next plan
//     reconciles: anything created but not yet recorded carries its
//     configured name and is adopted, never created twice.
//   - A replacement that creates first moves the old endpoint's entry to
//     "<address>[deposed:<endpoint id>]" before the create, and the delete
//     drops it: if the apply stops in between, the next plan deletes the
//     deposed endpoint instead of leaving it running and unmanaged.
//   - A failure stops the remaining steps of its project; other projects
//     finish theirs. The Report says what was done, what failed (with the
//     service's error) and what was not attempted.
//   - When ctx is cancelled (SIGINT, SIGTERM), no new step starts; a call in
//     flight is allowed to finish (for up to Options.InterruptGrace), its
//     waiting for operations may be cut short, and a step whose call
//     succeeded is recorded as done: the service finishes its operations.
//
// What it must not do: read the configuration (each step carries what to
// record in state), print or word anything (it tells Options.Hooks what it
// does, as facts, and the views word them: internal/command/views), change anything
// before the plan has been checked against the stored state and the live
// endpoints, or repeat a create whose outcome it does not know without first
// looking for what it may have made.
package apply
