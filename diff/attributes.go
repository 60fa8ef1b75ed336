package diff

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
	"github.com/neonform/neonform/state"
)

// attributes is the one table of managed compute attributes (docs/architecture.md,
// What each change does): for each, its name in the configuration and the plan, how it is read
// from a live endpoint, a compute block and a state entry, when two values
// are equal, what changing it does to a running compute, and how it is set in
// a create and in an update. Comparison, drift, the live digest, state
// records, request bodies, the stale-plan explanation, the lost-answer check,
// import and the views all take their knowledge from here.
//
// The order is the order in which a plan lists the attributes. Each entry
// names its internal/managed attribute, which holds what config needs too
// (its arguments, the service's field, its home). Adding an attribute
// (docs/architecture.md, Where to add things) is its managed.Attribute, one
// entry here, a field in Values (and in state.Attributes and the api types,
// which this table reads and writes), and its samples in the table-driven
// tests (attributes_test.go), which fail until it is wired through every use.
var attributes = []attribute{
	&field[api.EndpointType]{
		managed: managed.Type,
		in:      func(v *Values) *api.EndpointType { return &v.Type },
		live:    func(ep *api.Endpoint) api.EndpointType { return ep.Type },
		config:  func(c *config.Compute, _ string) api.EndpointType { return apiType(c.Type) },
		stored:  func(sc *state.Compute) *api.EndpointType { return &sc.Type },
		equal:   same[api.EndpointType],
		effect:  func(_, _ api.EndpointType) Disruption { return Recreate }, // no update changes it
		create:  func(e *api.EndpointCreate, t api.EndpointType) { e.Type = t },
		decode:  decodeEndpointType,
		format:  func(t api.EndpointType) string { return string(t) },
		hcl:     func(v *Values) []Argument { return stringArgument("type", string(v.Type)) },
	},
	&field[string]{
		managed: managed.Branch,
		in:      func(v *Values) *string { return &v.BranchID },
		live:    func(ep *api.Endpoint) string { return ep.BranchID },
		config:  func(_ *config.Compute, branchID string) string { return branchID },
		stored:  func(sc *state.Compute) *string { return &sc.BranchID },
		equal:   same[string],
		// The service suspends a compute that moves to another branch (docs/service.md, States and operations).
		effect: func(_, _ string) Disruption { return Suspend },
		create: func(e *api.EndpointCreate, id string) { e.BranchID = id },
		patch:  func(u *api.EndpointUpdate, id string) { u.BranchID = &id },
		decode: decodeString,
		format: func(id string) string { return id },
		// The branch block a compute block is in says its branch.
		hcl: func(*Values) []Argument { return nil },
		why: func(a Attribute, branch func(id string) Branch) Reason {
			from, to := branch(fmt.Sprint(a.Before)), branch(fmt.Sprint(a.After))
			return Reason{Kind: ReasonBranchMove, Attribute: a.Name, Branch: &from, ToBranch: &to}
		},
	},
	&field[float64]{
		managed: managed.MinCU,
		in:      func(v *Values) *float64 { return &v.MinCU },
		live:    func(ep *api.Endpoint) float64 { return ep.AutoscalingLimitMinCU },
		config:  func(c *config.Compute, _ string) float64 { return c.MinCU },
		stored:  func(sc *state.Compute) *float64 { return &sc.Applied.MinCU },
		equal:   same[float64],
		// A new size limit restarts the compute and drops its connections (docs/service.md, States and operations).
		effect:  func(_, _ float64) Disruption { return Restart },
		create:  func(e *api.EndpointCreate, cu float64) { e.AutoscalingLimitMinCU = &cu },
		patch:   func(u *api.EndpointUpdate, cu float64) { u.AutoscalingLimitMinCU = &cu },
		decode:  decodeNumber,
		format:  sizing.Format,
		hcl:     sizeArguments,
		project: func(d *api.DefaultEndpointSettings) **float64 { return &d.AutoscalingLimitMinCU },
		sent:    func(d *api.DefaultsSent) *float64 { return &d.AutoscalingLimitMinCU },
	},
	&field[float64]{
		managed: managed.MaxCU,
		in:      func(v *Values) *float64 { return &v.MaxCU },
		live:    func(ep *api.Endpoint) float64 { return ep.AutoscalingLimitMaxCU },
		config:  func(c *config.Compute, _ string) float64 { return c.MaxCU },
		stored:  func(sc *state.Compute) *float64 { return &sc.Applied.MaxCU },
		equal:   same[float64],
		effect:  func(_, _ float64) Disruption { return Restart },
		create:  func(e *api.EndpointCreate, cu float64) { e.AutoscalingLimitMaxCU = &cu },
		patch:   func(u *api.EndpointUpdate, cu float64) { u.AutoscalingLimitMaxCU = &cu },
		decode:  decodeNumber,
		format:  sizing.Format,
		hcl:     sizeArguments,
		project: func(d *api.DefaultEndpointSettings) **float64 { return &d.AutoscalingLimitMaxCU },
		sent:    func(d *api.DefaultsSent) *float64 { return &d.AutoscalingLimitMaxCU },
	},
	pgSettings,
	&field[int64]{
		managed: managed.SuspendTimeout,
		in:      func(v *Values) *int64 { return &v.SuspendTimeoutSeconds },
		live:    func(ep *api.Endpoint) int64 { return ep.SuspendTimeoutSeconds },
		config:  func(c *config.Compute, _ string) int64 { return c.SuspendTimeoutSeconds },
		stored:  func(sc *state.Compute) *int64 { return &sc.Applied.SuspendTimeoutSeconds },
		// 0 is the service's default, which is 300 s: "5m" in the
		// configuration and 0 live are the same timeout.
		equal:  func(a, b int64) bool { return managed.EffectiveSuspend(a) == managed.EffectiveSuspend(b) },
		effect: func(_, _ int64) Disruption { return None },
		create: func(e *api.EndpointCreate, s int64) { e.SuspendTimeoutSeconds = &s },
		patch:  func(u *api.EndpointUpdate, s int64) { u.SuspendTimeoutSeconds = &s },
		decode: decodeInteger,
		format: formatSuspend,
		// As the plan shows it: "90s", "1h30m", "never" (never the
		// default, which a block leaves out).
		hcl: func(v *Values) []Argument {
			return stringArgument("suspend_timeout", formatSuspend(v.SuspendTimeoutSeconds))
		},
		project: func(d *api.DefaultEndpointSettings) **int64 { return &d.SuspendTimeoutSeconds },
		sent:    func(d *api.DefaultsSent) *int64 { return &d.SuspendTimeoutSeconds },
	},
	&field[string]{
		managed: managed.Name,
		in:      func(v *Values) *string { return &v.Name },
		live:    func(ep *api.Endpoint) string { return ep.Name },
		config:  func(c *config.Compute, _ string) string { return c.Name },
		stored:  func(sc *state.Compute) *string { return &sc.Applied.Name },
		equal:   same[string],
		effect:  func(_, _ string) Disruption { return None },
		create:  func(e *api.EndpointCreate, n string) { e.Name = n },
		patch:   func(u *api.EndpointUpdate, n string) { u.Name = &n },
		decode:  decodeString,
		format:  quoteEmpty,
		hcl:     func(v *Values) []Argument { return stringArgument("name", v.Name) },
		text:    true, // a service that refuses a name may quote it
	},
	&field[bool]{
		managed: managed.Disabled,
		in:      func(v *Values) *bool { return &v.Disabled },
		live:    func(ep *api.Endpoint) bool { return ep.Disabled },
		config:  func(c *config.Compute, _ string) bool { return c.Disabled },
		stored:  func(sc *state.Compute) *bool { return &sc.Applied.Disabled },
		equal:   same[bool],
		// Disabling suspends the compute and refuses connections; enabling
		// only lets them in again.
		effect: func(_, after bool) Disruption {
			if after {
				return Suspend
			}
			return None
		},
		create: func(e *api.EndpointCreate, d bool) { e.Disabled = &d },
		patch:  func(u *api.EndpointUpdate, d bool) { u.Disabled = &d },
		decode: decodeBool,
		format: formatBool,
		hcl:    func(v *Values) []Argument { return []Argument{{"disabled", cty.BoolVal(v.Disabled)}} },
		why: func(a Attribute, _ func(id string) Branch) Reason {
			if a.Effect == Suspend {
				return Reason{Kind: ReasonDisable, Attribute: a.Name}
			}
			return Reason{Kind: ReasonEnable, Attribute: a.Name}
		},
	},
}

// pgSettings is the Postgres settings: a map whose every key is an attribute
// of its own in the plan ("pg_settings.work_mem"). They take effect when
// Postgres starts, so changing one restarts the compute; an update sends the
// whole map, which replaces the compute's settings.
var pgSettings = &settings{
	managed: managed.PgSettings,
	live:    func(ep *api.Endpoint) map[string]string { return ep.Settings.PgSettings },
	config:  func(c *config.Compute) map[string]string { return c.PgSettings },
	stored:  func(sc *state.Compute) *map[string]string { return &sc.Applied.PgSettings },
	project: func(d *api.DefaultEndpointSettings) map[string]string { return d.PgSettings },
	sent:    func(d *api.DefaultsSent) *map[string]string { return &d.PgSettings },
	effect:  Restart,
}

func apiType(t config.ComputeType) api.EndpointType {
	if t == config.ReadOnly {
		return api.EndpointTypeReadOnly
	}
	return api.EndpointTypeReadWrite
}

// attributeNamed returns the table entry of a plan attribute ("max_cu",
// "pg_settings.work_mem"), or nil.
func attributeNamed(planName string) attribute {
	for _, a := range attributes {
		if a.owns(planName) {
			return a
		}
	}
	return nil
}

// AtDefault reports whether value, as a plan records the attribute named
// planName, is that attribute's default (the views leave a default out of a
// create); false for a name the table does not know.
func AtDefault(planName string, value any) bool {
	a := attributeNamed(planName)
	return a != nil && a.atDefault(value)
}

// AttributeNames is the name of every managed attribute, in the order a plan
// lists them: what the plan file's schema must know.
func AttributeNames() []string {
	names := make([]string, len(attributes))
	for i, a := range attributes {
		names[i] = a.Name()
	}
	return names
}
