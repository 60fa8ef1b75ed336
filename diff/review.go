package diff

// What needs someone's approval. Every step of a plan does, but for two
// kinds that only bring the state to what already is, with no call to the
// service: forgetting a compute whose endpoint is gone (Step.Gone: deleted
// outside neonform, often with its preview branch), and adopting an
// endpoint that already matches its configuration (a preview branch made
// with a compute as its rule describes it). A plan of only these has no
// changes to review: plan -detailed-exitcode exits 0, apply carries it out
// without asking (and without a terminal), and the views still show it,
// saying it needs no review (docs/pipelines.md). Nothing else is let
// through: a rename, a forget a removed block asks for, a record of what is
// live, or an adoption that also updates, each needs review.

// adoptsAsIs is the addresses of the no-op changes that adopt an endpoint:
// their only step records it in the state.
func (p *Plan) adoptsAsIs() map[string]bool {
	var out map[string]bool
	for i := range p.Changes {
		if c := &p.Changes[i]; c.Adopt && c.Action == NoOp {
			if out == nil {
				out = map[string]bool{}
			}
			out[c.Address] = true
		}
	}
	return out
}

// needsReview is the one rule: whether a step needs someone's approval.
// adopts is the plan's adoptsAsIs.
func needsReview(s *Step, adopts map[string]bool) bool {
	switch {
	case s.Gone:
		return false
	case s.Kind == StepState && s.Record != nil && s.Forget == "" && s.MovedFrom == "" && adopts[s.Address]:
		return false
	}
	return true
}

// AdoptedAsIs counts the steps that adopt an endpoint that already matches
// its configuration, which need no review (and which Summary.StateOnly
// counts among the state-only steps).
func (p *Plan) AdoptedAsIs() int {
	adopts := p.adoptsAsIs()
	n := 0
	for i := range p.Steps {
		if s := &p.Steps[i]; !s.Gone && !needsReview(s, adopts) {
			n++
		}
	}
	return n
}
