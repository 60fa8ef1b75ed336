package diff

import "github.com/neonform/neonform/api"

// ChangeEffect is what changing the managed attribute named name ("max_cu",
// "pg_settings") can do to a running compute at worst, read from the
// attribute table; ok is false for a name the table does not know. For an
// attribute whose effect depends on the new value (disabled = true
// suspends, false does not), it is the worst of them. Editors show it
// beside an argument (neonform lsp).
func ChangeEffect(name string) (effect Disruption, ok bool) {
	for _, a := range attributes {
		if a.Name() != name {
			continue
		}
		switch a := a.(type) {
		case *field[api.EndpointType]:
			return a.effect(api.EndpointTypeReadWrite, api.EndpointTypeReadOnly), true
		case *field[bool]:
			return max(a.effect(false, true), a.effect(true, false)), true
		case *field[float64]:
			return a.effect(0, 1), true
		case *field[int64]:
			return a.effect(0, 1), true
		case *field[string]:
			return a.effect("", "x"), true
		case *settings:
			return a.effect, true
		}
		return Recreate, true // a kind not listed above: never say less than it may do
	}
	return None, false
}
