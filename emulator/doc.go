// Package emulator is a local, in-process server of the service API (Neon API v2) for
// compute endpoints: projects, branches, endpoints, operations and API keys, served over
// real HTTP under /api/v2, with the service's rules (docs/service.md).
// Tests, examples, benchmarks and the embedded sandbox run against it.
//
// What it models:
//   - Users, organizations and API keys (personal, organization, project-scoped), stored as
//     SHA-256 hashes only; the secret is shown once, in the answer that creates it.
//   - Projects with their account tier (paid or free), branches, endpoints and the per-project
//     operation chain. A mutation while an operation of the project runs gets 423.
//   - States by lazy time: nothing ticks. An operation runs from its start until start+OpDelay;
//     a compute is active once its start operation finished; once its last activity plus its
//     suspend timeout has passed, the control plane's suspend_compute operation is recorded
//     (when the project is next looked at) and the compute is idle when it finishes. Every
//     read derives the state from the Clock, so a FakeClock drives all of it deterministically.
//   - Beside the computes, what the service's CLI needs: the user and their organizations,
//     and the roles, databases and connection URIs of branches (read-only).
//   - Faults (5xx, 429, 423, added latency, dropped connections after processing), the
//     service's rate limit (per account, bursts per route), and request counters at
//     /_emulator/stats.
//   - Request bodies are checked against what it models: a field it does not model is a 400
//     that names it, never accepted and dropped.
//
// What it must not do: talk to the real service, log or write an API key secret anywhere
// (only hashes reach the data file), or import any package of ours but api (wire types) and
// sizing (compute-size rules). It is not a client: the client lives in package api.
//
// The world file format is described in README.md next to this file.
package emulator
