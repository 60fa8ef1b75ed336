package managed

import (
	"slices"
	"strings"
)

// Attribute is one managed attribute as the configuration and the service name it.
type Attribute struct {
	// Name is the attribute's name in the plan.
	Name string
	// Arguments are the compute block's arguments that set it, in the order
	// messages list them; none when the block's place says it (the branch).
	// A value from a sensitive variable in any of them hides the attribute:
	// a size is one thing to a person, so size, min_cu and max_cu are the
	// arguments of both of its ends.
	Arguments []string
	// API is the service's field for it, which people copy from its answers
	// into a configuration.
	API string
	// Key is its value's key in a plan file's and the state's JSON
	// (diff.Values, state.Attributes), which the redacted plan hides.
	Key string
	// Home is the block its arguments go in, which a hint names when one is
	// written in another block; "" when several blocks take the same name
	// (a project, a branch and a compute all have a name).
	Home string
	// Keyed is a map whose every key is an attribute of its own in the plan
	// ("pg_settings.work_mem").
	Keyed bool
	// Headline is shown in a create's header or size line (its type, its
	// branch, its size), so the views give it no line of its own.
	Headline bool
	// Default is what a compute block that writes none of Arguments asks
	// for; config applies it, and generate and the views leave out what
	// equals it.
	Default Default
	// ProjectDefault: a project's defaults block sets it too, for the
	// computes the service creates from then on (the project's
	// default_endpoint_settings has it).
	ProjectDefault bool
	// Costed: a compute's cost follows from it (its size, when it
	// suspends, whether it runs at all), so a value of it from a sensitive
	// variable hides the cost too.
	Costed bool
}

// sizeArguments set both ends of a size: size = 2, or min_cu with max_cu.
var sizeArguments = []string{"min_cu", "max_cu", "size"}

// The managed attributes.
var (
	// A compute is its branch's primary unless it says otherwise.
	Type = &Attribute{Name: "type", Arguments: []string{"type"}, API: "type", Key: "type", Home: "compute", Headline: true,
		Default: Is("read_write")}
	Branch = &Attribute{Name: "branch", API: "branch_id", Key: "branch_id", Headline: true,
		Default: ByPlace}
	// Both ends of a size default to the size the service gives a compute
	// created without one.
	MinCU = &Attribute{Name: "min_cu", Arguments: sizeArguments, API: "autoscaling_limit_min_cu", Key: "min_cu", Home: "compute", Headline: true,
		Default: Is(float64(DefaultCU)), ProjectDefault: true, Costed: true}
	MaxCU = &Attribute{Name: "max_cu", Arguments: sizeArguments, API: "autoscaling_limit_max_cu", Key: "max_cu", Home: "compute", Headline: true,
		Default: Is(float64(DefaultCU)), ProjectDefault: true, Costed: true}
	// The service's default timeout: SuspendDefault, which is
	// ServiceDefaultSuspend (EffectiveSuspend).
	SuspendTimeout = &Attribute{Name: "suspend_timeout", Arguments: []string{"suspend_timeout"}, API: "suspend_timeout_seconds", Key: "suspend_timeout_seconds", Home: "compute",
		Default: Is(SuspendDefault), ProjectDefault: true, Costed: true}
	// No settings: an empty map, never nil (Settings).
	PgSettings = &Attribute{Name: "pg_settings", Arguments: []string{"pg_settings"}, API: "settings", Key: "pg_settings", Home: "compute", Keyed: true,
		Default: Is(map[string]string{}), ProjectDefault: true}
	Disabled = &Attribute{Name: "disabled", Arguments: []string{"disabled"}, API: "disabled", Key: "disabled", Home: "compute",
		Default: Is(false), Costed: true}
	// A compute's endpoint is named after its block.
	Name = &Attribute{Name: "name", Arguments: []string{"name"}, API: "name", Key: "name",
		Default: FromLabel}
)

// All is every managed attribute, in the order a compute block's arguments
// are listed to people ("A compute block takes arguments type, min_cu, ...").
// diff's table lists each once, in the order of a plan.
var All = []*Attribute{Type, Branch, MinCU, MaxCU, SuspendTimeout, PgSettings, Disabled, Name}

// Arguments is every compute block argument that sets a managed attribute,
// each once, in All's order.
func Arguments() []string {
	var out []string
	for _, s := range All {
		for _, a := range s.Arguments {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// ProjectDefaultArguments is every argument of a project's defaults block:
// those of the attributes it sets (ProjectDefault), each once, in All's
// order.
func ProjectDefaultArguments() []string {
	var out []string
	for _, s := range All {
		for _, a := range s.Arguments {
			if s.ProjectDefault && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// Named is the attribute of a plan attribute's name ("max_cu",
// "pg_settings.work_mem"), or nil.
func Named(planName string) *Attribute {
	for _, a := range All {
		if !a.Keyed && planName == a.Name {
			return a
		}
		if key, ok := strings.CutPrefix(planName, a.Name+"."); ok && a.Keyed && key != "" {
			return a
		}
	}
	return nil
}

// SizeArgument reports whether the compute block argument arg sets a
// compute's size (size, min_cu, max_cu).
func SizeArgument(arg string) bool { return slices.Contains(sizeArguments, arg) }

// ScalingArgument reports whether the compute block argument arg says what
// a compute gets: its size, or when it scales to zero.
func ScalingArgument(arg string) bool { return SizeArgument(arg) || SuspendTimeout.SetBy(arg) }

// IsSize reports whether the attribute is one end of a compute's size.
func (s *Attribute) IsSize() bool { return s.SetBy("size") }

// SetBy reports whether the argument named arg sets the attribute.
func (s *Attribute) SetBy(arg string) bool { return slices.Contains(s.Arguments, arg) }

// Sensitive reports whether the attribute's value comes from a sensitive
// variable, given which of a compute block's arguments do
// (config.Compute.Sensitive).
func (s *Attribute) Sensitive(declared map[string]bool) bool {
	for _, a := range s.Arguments {
		if declared[a] {
			return true
		}
	}
	return false
}

// From lists the sensitive variables the attribute's value comes from, each
// once, given those of each argument (config.Compute.SensitiveFrom).
func (s *Attribute) From(declared map[string][]string) []string {
	var out []string
	for _, a := range s.Arguments {
		for _, v := range declared[a] {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}
