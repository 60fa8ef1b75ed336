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

	// kind is how its values are read, compared, shown, written and sent
	// (kinds.go); the entries of table.go say it.
	kind kind
}

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

// The table's readings of one attribute (its kind), for diff's plan.

// SetAfter sets the value the plan attribute c changes to into v.
func (s *Attribute) SetAfter(v *Values, c Change) error { return s.kind.setAfter(v, c) }

// AtDefault reports whether value, as a plan records the attribute, is
// what a compute block that leaves it out asks for (Default).
func (s *Attribute) AtDefault(value any) bool { return s.kind.atDefault(value) }

// Texts are its values in v that the service's answers may quote (a name,
// settings' values): what apply hides when they are sensitive.
func (s *Attribute) Texts(v *Values) []string { return s.kind.texts(v) }

// Write is the compute block's arguments that ask for its value in v;
// none when the block's place says it.
func (s *Attribute) Write(v *Values) []Argument { return s.kind.arguments(v) }

// DefaultOf sets into v what a compute block labelled label that writes
// none of its arguments asks for; false when its Default is not a value
// of its kind (TestEveryDefaultIsApplied).
func (s *Attribute) DefaultOf(v *Values, label string) bool { return s.kind.fromDefault(v, label) }
