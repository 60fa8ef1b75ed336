package sizing

// The account's plan: what each of the service's plans allows a compute and what a
// CU-hour costs on it, one table with the page each value comes from and the date
// that page was last updated (docs/service.md, Sizes; docs/limits.md, The account's
// plan). To update it, change the value and its source's date here: the config
// checks, the emulator and the tests read it from this table.
//
// Where two versions of a page disagree, the newer is kept and the older noted:
//   - neon.com/docs/introduction/plans as first published with the usage-based plans
//     (introduced 2025-08-14) said Free includes 50 CU-hours a project, Launch
//     $0.14 and Scale $0.26 a CU-hour, and Scale scales to zero after "5 seconds to
//     always on"; an intermediate version kept those prices with 100 CU-hours and
//     "1 minute to always on". The version updated 2026-03-20 (kept here) says 100
//     CU-hours, $0.106 and $0.222, and 1 minute; the limits page (2026-01-06) and
//     the computes page (2026-08-26) agree with it, and so does the summary of a
//     later version of the plans page (2026-11-12) on the prices.
//   - neon.com/docs/guides/autoscaling-guide (2025-12-17) states an older rule of
//     the range ("when the autoscaling maximum is > 10, the autoscaling minimum must
//     be ..."); the computes page (2026-08-26, newer) says the range is at most 8 CU.
// Values the docs do not settle are left out (zero), not guessed: a paid plan not
// named has no tier rule and no price.

import (
	"fmt"

	"github.com/neonform/neonform/internal/english"
)

// Tier is the account's plan, as account_tier names it.
type Tier string

const (
	Free   Tier = "free"
	Launch Tier = "launch"
	Scale  Tier = "scale"
	// Paid is a paid plan not named: only the service's own rules apply, and no price.
	Paid Tier = "paid"
)

// Tiers lists every value account_tier takes, in the order messages name them.
var Tiers = []Tier{Free, Launch, Scale, Paid}

// Source is the page a value comes from and the date it was last updated.
type Source struct {
	URL     string
	Updated string // YYYY-MM-DD
}

// The pages of the table.
var (
	PlansPage    = Source{URL: "https://neon.com/docs/introduction/plans", Updated: "2026-03-20"}
	LimitsPage   = Source{URL: "https://neon.com/docs/reference/limits", Updated: "2026-01-06"}
	ComputesPage = Source{URL: "https://neon.com/docs/manage/computes", Updated: "2026-08-26"}
)

// The service's own rules, on every plan.
const (
	// MaxAutoscalingRangeCU is the widest autoscaling range: max_cu - min_cu <= 8
	// (ComputesPage).
	MaxAutoscalingRangeCU CU = 8
	// MaxScaleToZeroCU is the largest size that scales to zero: a larger compute stays
	// active (ComputesPage, "Scale to zero configuration").
	MaxScaleToZeroCU CU = 16
	// MaxActiveComputes is how many computes of one project may be active at once; the
	// default branch's compute is exempt, and the rest stay suspended past it
	// (LimitsPage, "Compute limits").
	MaxActiveComputes = 20
)

// Suspend is what a plan allows of a compute's suspend timeout (scale to zero).
type Suspend int

const (
	// SuspendAny: the service's own range, 60 s to a week, or never.
	SuspendAny Suspend = iota
	// SuspendFixed: the default 5 minutes only (Free).
	SuspendFixed
	// SuspendFixedOrNever: the default 5 minutes, or never (Launch).
	SuspendFixedOrNever
)

// Plan is one row of the table: what a tier allows and costs. A zero limit or price
// means the docs do not settle it for this tier, and no rule or price is applied.
type Plan struct {
	Tier Tier
	// Name is the plan's name in the service's docs.
	Name string
	// MaxAutoscalingCU caps max_cu of an autoscaling range; MaxFixedCU a fixed size
	// (LimitsPage, PlansPage).
	MaxAutoscalingCU, MaxFixedCU CU
	// Suspend is what the suspend timeout may be (LimitsPage, PlansPage).
	Suspend Suspend
	// USDPerCUHour is the price of one CU-hour (PlansPage); 0 when there is none to
	// use (Free includes its hours, Paid names no plan).
	USDPerCUHour float64
	// IncludedCUHoursPerProject are the CU-hours a month each project gets at no
	// cost (PlansPage: Free).
	IncludedCUHoursPerProject float64
	// MaxProjects is how many projects the account may have; MaxBranchesPerProject
	// how many branches a project may have, the default branch included: Free's 10
	// are a hard limit (no extra branches), the paid plans' 5,000 the most with extra
	// branches billed (PlansPage, "Projects", "Branches", "Extra branches"). The
	// emulator refuses past them, and its GET /users/me reports them.
	MaxProjects, MaxBranchesPerProject int
	// Sources are the pages of this row's values.
	Sources []Source
}

// PricesUpdated is the date of the prices in the table (PlansPage).
var PricesUpdated = PlansPage.Updated

var plans = map[Tier]Plan{
	Free: {Tier: Free, Name: "Free", MaxAutoscalingCU: 2, MaxFixedCU: 2, Suspend: SuspendFixed,
		IncludedCUHoursPerProject: 100, MaxProjects: 100, MaxBranchesPerProject: 10, Sources: []Source{PlansPage, LimitsPage}},
	Launch: {Tier: Launch, Name: "Launch", MaxAutoscalingCU: 16, MaxFixedCU: 16, Suspend: SuspendFixedOrNever,
		USDPerCUHour: 0.106, MaxProjects: 100, MaxBranchesPerProject: 5000, Sources: []Source{PlansPage, LimitsPage}},
	Scale: {Tier: Scale, Name: "Scale", MaxAutoscalingCU: 16, MaxFixedCU: 56, Suspend: SuspendAny,
		USDPerCUHour: 0.222, MaxProjects: 1000, MaxBranchesPerProject: 5000, Sources: []Source{PlansPage, LimitsPage}},
	Paid: {Tier: Paid, Name: "a paid plan"},
}

// PlanOf returns the row of a tier, and false for a tier that is not one.
func PlanOf(t Tier) (Plan, bool) {
	p, ok := plans[t]
	return p, ok
}

// Price returns the price of a CU-hour on the plan, and false when the table has none.
func (p Plan) Price() (float64, bool) { return p.USDPerCUHour, p.USDPerCUHour > 0 }

// FreeMaxCU is the Free plan's cap (2 vCPU, 8 GB RAM).
var FreeMaxCU = plans[Free].MaxFixedCU

// checkPlan applies a named tier's caps to a size the service itself allows.
func checkPlan(min, max CU, tier Tier) error {
	p, ok := plans[tier]
	if !ok {
		return nil
	}
	limit, what := p.MaxFixedCU, "computes of"
	if min != max {
		limit, what = p.MaxAutoscalingCU, "autoscaling"
	}
	if limit == 0 || max <= limit {
		return nil
	}
	return &Error{
		Summary: fmt.Sprintf("Size above the %s plan's limit", p.Name),
		Detail: fmt.Sprintf("The %s plan allows %s up to %s CU (%s); %s CU needs %s. Use at most %s, or set account_tier to the account's plan%s.",
			p.Name, what, Format(limit), Format(RAMGB(limit))+" GB RAM", Format(max), largerPlan(min, max), Format(limit), tierHint(tier)),
	}
}

// largerPlan names the plans that allow a size.
func largerPlan(min, max CU) string {
	var names []string
	for _, t := range []Tier{Launch, Scale} {
		p := plans[t]
		limit := p.MaxFixedCU
		if min != max {
			limit = p.MaxAutoscalingCU
		}
		if max <= limit {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return "a larger plan"
	}
	return "the " + english.Or(names) + " plan"
}

func tierHint(t Tier) string {
	if t == Free {
		return ` ("launch" or "scale")`
	}
	return ` ("scale")`
}

// CheckSuspend checks a compute's suspend timeout against its size and the tier:
// seconds is the service's suspend_timeout_seconds (0 the default of 5 minutes, -1
// never). The service's own range (60 s to a week) is the caller's to check first.
func CheckSuspend(min, max CU, seconds int64, tier Tier) error {
	if max > MaxScaleToZeroCU && seconds > 0 {
		return &Error{
			Summary: "Scale to zero above 16 CU",
			Detail: fmt.Sprintf("Computes larger than 16 CU never scale to zero, so a %s CU compute takes no suspend timeout. Remove suspend_timeout (or write \"never\"), or use a size of at most 16 CU.",
				Format(max)),
		}
	}
	p := plans[tier]
	switch {
	case p.SuspendAllows(seconds):
	case p.Suspend == SuspendFixed:
		return &Error{
			Summary: "Suspend timeout on the Free plan",
			Detail:  "The Free plan suspends an idle compute after 5 minutes, which cannot be changed or turned off. Remove suspend_timeout, or set account_tier to the account's paid plan (\"launch\" or \"scale\").",
		}
	case p.Suspend == SuspendFixedOrNever:
		return &Error{
			Summary: "Suspend timeout on the Launch plan",
			Detail:  "The Launch plan suspends an idle compute after 5 minutes, or never: write suspend_timeout = \"5m\" or \"never\", or remove it. Other timeouts need the Scale plan (account_tier = \"scale\").",
		}
	}
	return nil
}

// SuspendAllows reports whether the plan allows a suspend timeout of seconds
// (suspend_timeout_seconds: 0 the default of 5 minutes, -1 never), the service's own
// range aside: Free only the default, Launch the default or never.
func (p Plan) SuspendAllows(seconds int64) bool {
	fixed := seconds == 0 || seconds == 300
	switch p.Suspend {
	case SuspendFixed:
		return fixed
	case SuspendFixedOrNever:
		return fixed || seconds == -1
	}
	return true
}
