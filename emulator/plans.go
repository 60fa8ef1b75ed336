package emulator

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/neonform/neonform/sizing"
)

// The account's plan, enforced on every request from the table validate uses
// (sizing/plans.go; docs/service.md, Sizes): sizes (checkSize), the suspend timeout,
// and the counts of projects and branches GET /users/me reports. A project is on its
// account's plan: its organization's, or its owner's for a personal project.

// Codes of the limits' answers. The service's codes are not documented
// (docs/service.md, Errors); these follow its other limit reasons.
const (
	codeProjectsLimit = "PROJECTS_LIMIT_EXCEEDED"
	codeBranchesLimit = "BRANCHES_LIMIT_EXCEEDED"
)

// planOf is the row of the table a tier is held to. "paid", a paid plan neonform's
// configuration does not name, is held to Scale's: the emulator must answer as some
// plan does, and Scale allows what any paid plan allows.
func planOf(t sizing.Tier) sizing.Plan {
	if p, ok := sizing.PlanOf(t); ok && t != sizing.Paid {
		return p
	}
	p, _ := sizing.PlanOf(sizing.Scale)
	return p
}

// checkPlanSuspend refuses a suspend timeout the account's plan does not allow: Free
// suspends after 5 minutes, fixed, and cannot disable scale to zero; Launch suspends
// after 5 minutes or never.
func checkPlanSuspend(seconds int64, tier sizing.Tier) error {
	p := planOf(tier)
	if p.SuspendAllows(seconds) {
		return nil
	}
	if p.Suspend == sizing.SuspendFixed {
		return badRequest("suspend_timeout_seconds %d is not allowed on the %s plan: an idle compute suspends after 5 minutes, which cannot be changed or disabled; send 0 (or 300), or upgrade the plan", seconds, p.Name)
	}
	return badRequest("suspend_timeout_seconds %d is not allowed on the %s plan: an idle compute suspends after 5 minutes, or never (-1); send 0, 300 or -1, or upgrade to the Scale plan for other timeouts", seconds, p.Name)
}

// checkBranchCount refuses a new branch past the plan's branches a project, the
// default branch included. Caller holds p.mu.
func checkBranchCount(p *project) error {
	plan := planOf(p.Tier)
	if max := plan.MaxBranchesPerProject; max > 0 && len(p.branches) >= max {
		return errorf(http.StatusUnprocessableEntity, codeBranchesLimit,
			"branches limit exceeded: project %s has %d branches, the most the %s plan allows; delete a branch, or upgrade the plan", p.ID, len(p.branches), plan.Name)
	}
	return nil
}

// checkProjectCount refuses a new project past the plan's projects of the account
// that would own it: the organization's projects, or the user's personal ones.
func (e *Emulator) checkProjectCount(spec *projectSpec) error {
	plan := planOf(spec.tier)
	if plan.MaxProjects == 0 {
		return nil
	}
	w := e.w
	w.mu.RLock()
	n := 0
	for _, p := range w.projects {
		if p.OrgID == spec.orgID && (spec.orgID != "" || p.OwnerID == spec.ownerID) {
			n++
		}
	}
	w.mu.RUnlock()
	if n >= plan.MaxProjects {
		return errorf(http.StatusUnprocessableEntity, codeProjectsLimit,
			"projects limit exceeded: the account has %d projects, the most the %s plan allows; delete a project, or upgrade the plan", n, plan.Name)
	}
	return nil
}

// userLimits are the limits GET /users/me reports for a plan, from the same table.
func userLimits(t sizing.Tier) (projects, branches int64, maxCU float64) {
	p := planOf(t)
	return int64(p.MaxProjects), int64(p.MaxBranchesPerProject), p.MaxAutoscalingCU
}

// tierList names the tiers a world file and SetProjectTier take.
func tierList() string {
	names := make([]string, len(sizing.Tiers))
	for i, t := range sizing.Tiers {
		names[i] = fmt.Sprintf("%q", t)
	}
	return strings.Join(names, ", ")
}
