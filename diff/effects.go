package diff

import "github.com/neonform/neonform/internal/managed"

// ChangeEffect is what changing the managed attribute named name ("max_cu",
// "pg_settings") can do to a running compute at worst, read from the
// attribute table (managed.Attribute.WorstEffect); ok is false for a name
// the table does not know. Editors show it beside an argument (neonform lsp).
func ChangeEffect(name string) (effect Disruption, ok bool) {
	for _, a := range managed.InPlan {
		if a.Name == name {
			return a.WorstEffect(), true
		}
	}
	return None, false
}
