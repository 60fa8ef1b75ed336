package managed

import "github.com/neonform/neonform/api"

// WorstEffect is what changing the attribute can do to a running compute
// at worst, read from its kind: for an attribute whose effect depends on
// the new value (disabled = true suspends, false does not), the worst of
// them (diff.ChangeEffect, which editors show beside an argument).
func (s *Attribute) WorstEffect() Disruption {
	switch k := s.kind.(type) {
	case *field[api.EndpointType]:
		return k.effect(api.EndpointTypeReadWrite, api.EndpointTypeReadOnly)
	case *field[bool]:
		return max(k.effect(false, true), k.effect(true, false))
	case *field[float64]:
		return k.effect(0, 1)
	case *field[int64]:
		return k.effect(0, 1)
	case *field[string]:
		return k.effect("", "x")
	case *settings:
		return k.effect
	}
	return Recreate // a kind not listed above: never say less than it may do
}
