package managed

import (
	"maps"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// Applied are a compute's managed attributes beside its type and branch:
// what a compute block's arguments set (config.Compute embeds them, so a
// block's c.MinCU is this field) and what a state entry records as last
// applied (state.Attributes is this type; its type and branch are the
// entry's own). Their fields are named here and read through the table.
type Applied struct {
	Name                  string  `json:"name"`
	MinCU                 float64 `json:"min_cu"`
	MaxCU                 float64 `json:"max_cu"`
	SuspendTimeoutSeconds int64   `json:"suspend_timeout_seconds"`
	// PgSettings: a plan holds them never nil (Values.Settled), written {};
	// a state entry without settings holds nil, which it leaves out
	// (diff.Values.Record).
	PgSettings map[string]string `json:"pg_settings,omitzero"`
	Disabled   bool              `json:"disabled"`
}

// Clone is a deep copy: its settings are a map of its own.
func (a Applied) Clone() Applied {
	a.PgSettings = maps.Clone(a.PgSettings)
	return a
}

// Size is the size asked for: its two ends, as sizing reads them.
func (a *Applied) Size() sizing.Size { return sizing.Size{Min: a.MinCU, Max: a.MaxCU} }

// NeverSuspends reports whether the compute, once started, never suspends
// on its own: suspend_timeout = "never", or a size above 16 CU, which never
// scales to zero (sizing.NeverSuspends, the one place of that rule).
func (a *Applied) NeverSuspends() bool { return sizing.NeverSuspends(a.MaxCU, a.SuspendTimeoutSeconds) }

// AlwaysActive reports whether a compute, once started, never suspends on
// its own (NeverSuspends); a disabled compute is not running at all.
func (a *Applied) AlwaysActive() bool { return !a.Disabled && a.NeverSuspends() }

// SuspendAfter is how long the compute waits without activity before it
// scales to zero: its timeout, the service's default said in seconds
// (EffectiveSuspend).
func (a *Applied) SuspendAfter() time.Duration {
	return time.Duration(EffectiveSuspend(a.SuspendTimeoutSeconds)) * time.Second
}

// ShownSize is a's size as people read it (`neonform output`): each end a
// number, or, for an end whose attribute hidden hides, its words.
func (a *Applied) ShownSize(hidden func(attribute string) (string, bool)) (lo, hi any) {
	lo, hi = a.MinCU, a.MaxCU
	if h, ok := hidden(MinCU.Name); ok {
		lo = h
	}
	if h, ok := hidden(MaxCU.Name); ok {
		hi = h
	}
	return lo, hi
}

// Usage is what the cost of a compute with these values follows from (its
// Costed attributes), before any hint of its active hours.
func (a *Applied) Usage() sizing.Usage {
	return sizing.Usage{Min: a.MinCU, Max: a.MaxCU, NeverSuspends: a.NeverSuspends(), Disabled: a.Disabled}
}

// Values are the managed attributes of one compute, in the service's terms:
// what a live endpoint has, what a compute block asks for, or what the state
// says was applied. Each is read, compared and sent as the attribute table
// (table.go) says; diff.Values is this type with the plan's methods.
type Values struct {
	Type     api.EndpointType `json:"type"`
	BranchID string           `json:"branch_id"`
	Applied
}

// Settled is v with its settings never nil (Settings): how a plan holds
// them, so that "no settings" is {} wherever it is compared or written.
func (v Values) Settled() Values {
	v.PgSettings = Settings(v.PgSettings)
	return v
}

// Recorded is what a state entry records of v's own attributes: no
// settings are nil, which the entry leaves out.
func (v Values) Recorded() Applied {
	a := v.Applied
	a.PgSettings = nil
	if len(v.PgSettings) > 0 {
		a.PgSettings = maps.Clone(v.PgSettings)
	}
	return a
}

// Own is a copy of what values a holds for a compute of type t on branch
// branchID, its settings a map of its own, never nil (Settings): what a
// compute block asks for, or what a state entry says was applied.
func Own(t api.EndpointType, branchID string, a *Applied) Values {
	v := Values{Type: t, BranchID: branchID, Applied: *a}
	v.PgSettings = maps.Clone(Settings(a.PgSettings))
	return v
}
