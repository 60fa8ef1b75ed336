package managed

// Default is what a compute block that writes none of an attribute's
// arguments asks for (docs/configuration.md): a value, the block's label,
// or nothing, when the block's place says it. The zero Default decides
// nothing, which TestEveryAttributeHasADefault refuses: every attribute says
// what its absence means.
type Default struct {
	// Value is the value asked for, as the attribute's field holds it in
	// config's Compute and diff's Values: a string for the type, float64
	// sizes, int64 seconds, a map of settings, a bool.
	Value any
	// Label: the block's label is the value (a compute's name).
	Label bool
	// Placed: the block's place gives the value (the branch block a compute
	// is in), so no block leaves it out.
	Placed bool
}

// Is is a default of v.
func Is(v any) Default { return Default{Value: v} }

// The defaults that are not values.
var (
	// FromLabel is the block's label.
	FromLabel = Default{Label: true}
	// ByPlace is what the block's place says.
	ByPlace = Default{Placed: true}
)

// Decided reports whether the default says what an absent argument means:
// exactly one of a value, the label or the place.
func (d Default) Decided() bool {
	n := 0
	for _, b := range []bool{d.Value != nil, d.Label, d.Placed} {
		if b {
			n++
		}
	}
	return n == 1
}

// Of is the value d gives a block labelled label, and whether it gives one
// (a default by place gives none).
func (d Default) Of(label string) (any, bool) {
	switch {
	case d.Label:
		return label, true
	case d.Value != nil:
		return d.Value, true
	}
	return nil, false
}
