// Package sizing holds the compute-size rules of the service (docs/service.md, Sizes):
// which sizes exist, the autoscaling range, the caps and prices of the account's plan
// (plans.go), and what a size gives a person: vCPU, RAM, LFC, temporary disk and max_connections.
//
// It is the one source of truth: the config checks, the plan output and the emulator all
// use it. It imports nothing of ours and does no I/O.
package sizing

import (
	"fmt"
	"math"
	"strconv"
)

// CU is a compute size in compute units: 1 CU = 1 vCPU and 4 GB of RAM.
type CU = float64

const (
	// SmallestCU is the smallest size of any compute.
	SmallestCU CU = 0.25
	// MaxFixedCU is the largest fixed size.
	MaxFixedCU CU = 56
	// MaxAutoscalingCU is the largest size an autoscaling range may reach; larger sizes are fixed only.
	MaxAutoscalingCU CU = 16
)

// Allowed reports whether cu is a size the service offers: 0.25, 0.5, every
// integer from 1 to 16, and every even integer from 18 to 56.
func Allowed(cu CU) bool {
	switch {
	case cu == 0.25 || cu == 0.5:
		return true
	case cu != math.Trunc(cu):
		return false
	case cu >= 1 && cu <= 16:
		return true
	case cu >= 18 && cu <= MaxFixedCU:
		return int(cu)%2 == 0
	}
	return false
}

// Nearest returns the allowed sizes just below and above cu (0 when there is none), for
// error messages that say what to write instead.
func Nearest(cu CU) (below, above CU) {
	for _, s := range Sizes() {
		if s < cu {
			below = s
		}
		if s > cu && above == 0 {
			above = s
		}
	}
	return below, above
}

// Sizes lists every allowed size in ascending order.
func Sizes() []CU {
	out := []CU{0.25, 0.5}
	for n := 1; n <= 16; n++ {
		out = append(out, CU(n))
	}
	for n := 18; n <= int(MaxFixedCU); n += 2 {
		out = append(out, CU(n))
	}
	return out
}

// Error is a broken sizing rule: Summary is a short title, Detail says how to fix it.
// The config turns it into a diagnostic; the emulator into a 400 answer.
type Error struct {
	Summary string
	Detail  string
}

func (e *Error) Error() string { return e.Summary + ": " + e.Detail }

// CheckSize checks that cu is a size the service offers, whatever the tier, so a
// caller can point at the one value that is wrong before checking a pair.
func CheckSize(cu CU) error {
	if !Allowed(cu) {
		return unsupported(cu)
	}
	return nil
}

// CheckRange checks a compute's size: a fixed size when min == max, an autoscaling
// range otherwise, against the rules of the service (on every plan) and then the caps
// of the account's tier (plans.go; none for Paid).
func CheckRange(min, max CU, tier Tier) error {
	for _, v := range []CU{min, max} {
		if !Allowed(v) {
			return unsupported(v)
		}
	}
	if min > max {
		return &Error{
			Summary: "Minimum above maximum",
			Detail:  fmt.Sprintf("min_cu %s is larger than max_cu %s; swap them, or use size = %s for a fixed size.", Format(min), Format(max), Format(min)),
		}
	}
	if min != max && max > MaxAutoscalingCU {
		return &Error{
			Summary: "Autoscaling above 16 CU",
			Detail: fmt.Sprintf("Autoscaling ranges go from 0.25 to 16 CU; sizes above 16 CU are fixed only. Use max_cu <= 16, or a fixed size = %s.",
				Format(max)),
		}
	}
	if max-min > MaxAutoscalingRangeCU {
		return &Error{
			Summary: "Autoscaling range above 8 CU",
			Detail: fmt.Sprintf("An autoscaling range spans at most 8 CU (max_cu - min_cu <= 8); %s to %s CU spans %s. Use min_cu >= %s, or max_cu <= %s.",
				Format(min), Format(max), Format(max-min), Format(atLeast(max-MaxAutoscalingRangeCU)), Format(atMost(min+MaxAutoscalingRangeCU))),
		}
	}
	return checkPlan(min, max, tier)
}

// atLeast is the smallest allowed size of at least cu; atMost the largest of at most cu.
func atLeast(cu CU) CU {
	if Allowed(cu) {
		return cu
	}
	_, above := Nearest(cu)
	return above
}

func atMost(cu CU) CU {
	if Allowed(cu) {
		return cu
	}
	below, _ := Nearest(cu)
	return below
}

func unsupported(v CU) error {
	detail := fmt.Sprintf("%s CU is not a size the service offers. Sizes are 0.25, 0.5, every whole number from 1 to 16, and even numbers from 18 to 56.", Format(v))
	below, above := Nearest(v)
	switch {
	case v < SmallestCU:
		detail += " The smallest is 0.25."
	case v > MaxFixedCU:
		detail += " The largest is 56."
	case below != 0 && above != 0:
		detail += fmt.Sprintf(" The nearest are %s and %s.", Format(below), Format(above))
	}
	return &Error{Summary: "Unsupported compute size", Detail: detail}
}

// Format prints a size the way a person writes it: 0.25, 2, 18. Ten significant
// digits hide float noise in derived figures (3 GB x 0.3 CU is 0.9, not 0.8999999999999999).
func Format(cu CU) string {
	return strconv.FormatFloat(cu, 'g', 10, 64)
}
