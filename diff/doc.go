// Package diff is the plan model: it turns what the user wants (config), what
// neonform last did (state) and what is running (the live endpoints, a *Live
// that diff/fetch reads) into a Plan: every change marked with what it does to
// running clients, and the ordered API calls that carry it out.
//
// The pipeline, one file per stage:
//
//	identify (match.go)  which live endpoint each configured compute is: state id, then adoption
//	compare (compare.go) attribute by attribute: before, after, and the effect (restart, suspend...)
//	derive (derive.go)   the drift, the steps, what each records in the state, the summary
//	order (order.go)     the steps in an order the service accepts
//	Plan (plan.go)       the model that apply carries out and the views print
//
// Around it, each importing it and none imported by it: diff/fetch reads the
// live endpoints from the service, diff/planfile reads and writes the plan
// file (and its redacted JSON copy and schema), and diff/view renders a plan
// for a terminal and for a pull-request comment. The reasons a change gives
// are kinds and facts (reason.go), never words: the plan file records them,
// Verify derives them again (reasons.go, verify_reasons.go), and diff/view
// words them.
//
// What it must not do: call the service, read or write a file, print, or ever
// see the API key. A plan is a pure function of config, state and live
// endpoints: the same inputs give the same plan file byte for byte, except
// created_at.
//
// Apply must not need the configuration: each Step carries what to record in
// state once it succeeds (Step.UpdateState does exactly that).
package diff
