package managed

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// The attribute table (docs/architecture.md, One attribute table): each
// managed compute attribute once, with everything every package knows of
// it: its name, the compute block's arguments that set it, the service's
// field, its JSON key, its home, its default, whether a project's defaults
// set it and whether a cost follows from it; and its kind (kinds.go): where
// it lives in Values, how it is read from a live endpoint, when two values
// are equal, what changing it does to a running compute (docs/service.md,
// States and operations), how it goes into a create, an update and a
// project's defaults, how a plan file's value decodes and how people read
// it, how a compute block writes it, and whether the service's answers may
// quote it. A compute block, a state entry and a live endpoint all hold
// Values, so nothing else reads or writes an attribute's field.
var (
	// A compute is its branch's primary unless it says otherwise.
	Type = &Attribute{Name: "type", Arguments: []string{"type"}, API: "type", Key: "type", Home: "compute", Headline: true,
		Default: Is("read_write"), kind: &field[api.EndpointType]{
			in:     func(v *Values) *api.EndpointType { return &v.Type },
			live:   func(ep *api.Endpoint) api.EndpointType { return ep.Type },
			equal:  same[api.EndpointType],
			effect: func(_, _ api.EndpointType) Disruption { return Recreate }, // no update changes it
			create: func(e *api.EndpointCreate, t api.EndpointType) { e.Type = t },
			decode: decodeEndpointType,
			format: func(t api.EndpointType) string { return string(t) },
			hcl:    func(v *Values) []Argument { return stringArgument("type", string(v.Type)) },
		}}
	Branch = &Attribute{Name: "branch", API: "branch_id", Key: "branch_id", Headline: true,
		Default: ByPlace, kind: &field[string]{
			in:    func(v *Values) *string { return &v.BranchID },
			live:  func(ep *api.Endpoint) string { return ep.BranchID },
			equal: same[string],
			// The service suspends a compute that moves to another branch (docs/service.md, States and operations).
			effect: func(_, _ string) Disruption { return Suspend },
			create: func(e *api.EndpointCreate, id string) { e.BranchID = id },
			patch:  func(u *api.EndpointUpdate, id string) { u.BranchID = &id },
			decode: decodeString,
			format: func(id string) string { return id },
			// The branch block a compute block is in says its branch.
			hcl: func(*Values) []Argument { return nil },
		}}
	// Both ends of a size default to the size the service gives a compute
	// created without one.
	MinCU = &Attribute{Name: "min_cu", Arguments: sizeArguments, API: "autoscaling_limit_min_cu", Key: "min_cu", Home: "compute", Headline: true,
		Default: Is(float64(DefaultCU)), ProjectDefault: true, Costed: true, kind: &field[float64]{
			in:    func(v *Values) *float64 { return &v.MinCU },
			live:  func(ep *api.Endpoint) float64 { return ep.AutoscalingLimitMinCU },
			equal: same[float64],
			// A new size limit restarts the compute and drops its connections (docs/service.md, States and operations).
			effect:  func(_, _ float64) Disruption { return Restart },
			create:  func(e *api.EndpointCreate, cu float64) { e.AutoscalingLimitMinCU = &cu },
			patch:   func(u *api.EndpointUpdate, cu float64) { u.AutoscalingLimitMinCU = &cu },
			decode:  decodeNumber,
			format:  sizing.Format,
			hcl:     writeSize,
			project: func(d *api.DefaultEndpointSettings) **float64 { return &d.AutoscalingLimitMinCU },
			sent:    func(d *api.DefaultsSent) *float64 { return &d.AutoscalingLimitMinCU },
		}}
	MaxCU = &Attribute{Name: "max_cu", Arguments: sizeArguments, API: "autoscaling_limit_max_cu", Key: "max_cu", Home: "compute", Headline: true,
		Default: Is(float64(DefaultCU)), ProjectDefault: true, Costed: true, kind: &field[float64]{
			in:      func(v *Values) *float64 { return &v.MaxCU },
			live:    func(ep *api.Endpoint) float64 { return ep.AutoscalingLimitMaxCU },
			equal:   same[float64],
			effect:  func(_, _ float64) Disruption { return Restart },
			create:  func(e *api.EndpointCreate, cu float64) { e.AutoscalingLimitMaxCU = &cu },
			patch:   func(u *api.EndpointUpdate, cu float64) { u.AutoscalingLimitMaxCU = &cu },
			decode:  decodeNumber,
			format:  sizing.Format,
			hcl:     writeSize,
			project: func(d *api.DefaultEndpointSettings) **float64 { return &d.AutoscalingLimitMaxCU },
			sent:    func(d *api.DefaultsSent) *float64 { return &d.AutoscalingLimitMaxCU },
		}}
	// The service's default timeout: SuspendDefault, which is
	// ServiceDefaultSuspend (EffectiveSuspend).
	SuspendTimeout = &Attribute{Name: "suspend_timeout", Arguments: []string{"suspend_timeout"}, API: "suspend_timeout_seconds", Key: "suspend_timeout_seconds", Home: "compute",
		Default: Is(SuspendDefault), ProjectDefault: true, Costed: true, kind: &field[int64]{
			in:   func(v *Values) *int64 { return &v.SuspendTimeoutSeconds },
			live: func(ep *api.Endpoint) int64 { return ep.SuspendTimeoutSeconds },
			// 0 is the service's default, which is 300 s: "5m" in the
			// configuration and 0 live are the same timeout.
			equal:  func(a, b int64) bool { return EffectiveSuspend(a) == EffectiveSuspend(b) },
			effect: func(_, _ int64) Disruption { return None },
			create: func(e *api.EndpointCreate, s int64) { e.SuspendTimeoutSeconds = &s },
			patch:  func(u *api.EndpointUpdate, s int64) { u.SuspendTimeoutSeconds = &s },
			decode: decodeInteger,
			format: FormatSuspend,
			// As the plan shows it: "90s", "1h30m", "never" (never the
			// default, which a block leaves out).
			hcl: func(v *Values) []Argument {
				return stringArgument("suspend_timeout", FormatSuspend(v.SuspendTimeoutSeconds))
			},
			project: func(d *api.DefaultEndpointSettings) **int64 { return &d.SuspendTimeoutSeconds },
			sent:    func(d *api.DefaultsSent) *int64 { return &d.SuspendTimeoutSeconds },
		}}
	// No settings: an empty map, never nil (Settings). They take effect
	// when Postgres starts, so changing one restarts the compute; an update
	// sends the whole map, which replaces the compute's settings.
	PgSettings = &Attribute{Name: "pg_settings", Arguments: []string{"pg_settings"}, API: "settings", Key: "pg_settings", Home: "compute", Keyed: true,
		Default: Is(map[string]string{}), ProjectDefault: true, kind: &settings{
			live:    func(ep *api.Endpoint) map[string]string { return ep.Settings.PgSettings },
			project: func(d *api.DefaultEndpointSettings) map[string]string { return d.PgSettings },
			sent:    func(d *api.DefaultsSent) *map[string]string { return &d.PgSettings },
			effect:  Restart,
		}}
	Disabled = &Attribute{Name: "disabled", Arguments: []string{"disabled"}, API: "disabled", Key: "disabled", Home: "compute",
		Default: Is(false), Costed: true, kind: &field[bool]{
			in:    func(v *Values) *bool { return &v.Disabled },
			live:  func(ep *api.Endpoint) bool { return ep.Disabled },
			equal: same[bool],
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
		}}
	// A compute's endpoint is named after its block.
	Name = &Attribute{Name: "name", Arguments: []string{"name"}, API: "name", Key: "name",
		Default: FromLabel, kind: &field[string]{
			in:     func(v *Values) *string { return &v.Name },
			live:   func(ep *api.Endpoint) string { return ep.Name },
			equal:  same[string],
			effect: func(_, _ string) Disruption { return None },
			create: func(e *api.EndpointCreate, n string) { e.Name = n },
			patch:  func(u *api.EndpointUpdate, n string) { u.Name = &n },
			decode: decodeString,
			format: quoteEmpty,
			hcl:    func(v *Values) []Argument { return stringArgument("name", v.Name) },
			text:   true, // a service that refuses a name may quote it
		}}
)

// sizeArguments set both ends of a size: size = 2, or min_cu with max_cu.
var sizeArguments = []string{"min_cu", "max_cu", "size"}

// All is every managed attribute, in the order a compute block's arguments
// are listed to people ("A compute block takes arguments type, min_cu, ...").
var All = []*Attribute{Type, Branch, MinCU, MaxCU, SuspendTimeout, PgSettings, Disabled, Name}

// InPlan is every managed attribute in the order a plan lists them: what
// comparison, requests, records and the views go through.
var InPlan = []*Attribute{Type, Branch, MinCU, MaxCU, PgSettings, SuspendTimeout, Name, Disabled}

func init() {
	for _, a := range All {
		a.kind.bind(a)
	}
}
