package apply

// DamagedPlanError refuses a plan that diff.Verify does not derive again: a
// plan file cut short or edited by hand (its steps, state-only ones
// included, its changes or its summary). Nothing was changed.
type DamagedPlanError struct {
	Reason string
}

func (e *DamagedPlanError) Error() string {
	return "the plan cannot be applied, so nothing was changed: " + e.Reason +
		". Was the plan file edited or cut short? Make a new one with `neonform plan -out plan.json`."
}
