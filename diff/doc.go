// Package diff turns what the user wants (config), what neonform last did
// (state) and what is running (the live endpoints) into a Plan: every change
// marked with what it does to running clients, and the ordered API calls that
// carry it out. It also reads and writes the plan file and renders a plan for
// a terminal, for a pull-request comment (Markdown) and as JSON.
//
// The pipeline, one file per stage:
//
//	fetch.Live (diff/fetch) one list-endpoints call per project (+ list-branches when a branch is named)
//	identify (match.go)  which live endpoint each configured compute is: state id, then adoption
//	compare (compare.go) attribute by attribute: before, after, and the effect (restart, suspend...)
//	order (order.go)     the changes as API steps, in an order the service accepts
//	Plan (plan.go)       the model that apply carries out and the renderers print
//
// What it must not do: call the service to change anything (it only reads, in
// Fetch), print to the terminal (renderers write to the writer they are
// handed), or ever see the API key. A plan is a pure function of config,
// state and live endpoints: the same inputs give the same plan file byte for
// byte, except created_at.
//
// Apply must not need the configuration: each Step carries what to record in
// state once it succeeds (Step.UpdateState does exactly that).
package diff
