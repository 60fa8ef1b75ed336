package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// settingsVariables are the variables the neonform block uses, directly or
// through locals, sorted. Applying a saved plan reads the neonform block
// alone: a -var for any other variable would change nothing, and is
// refused rather than ignored (Settings.Variables).
func (l *loader) settingsVariables(blocks []*hclsyntax.Block) []string {
	used := map[string]bool{}
	seenLocal := map[string]bool{}
	var visit func(hcl.Expression)
	visit = func(e hcl.Expression) {
		for _, t := range e.Variables() {
			name, _, ok := refName(t)
			if !ok {
				continue
			}
			switch t.RootName() {
			case "var":
				used[name] = true
			case "local":
				if loc := l.locals[name]; loc != nil && !seenLocal[name] {
					seenLocal[name] = true
					visit(loc.Attr.Expr)
				}
			}
		}
	}
	var walk func(*hclsyntax.Body)
	walk = func(b *hclsyntax.Body) {
		for _, a := range b.Attributes {
			visit(a.Expr)
		}
		for _, nested := range b.Blocks {
			walk(nested.Body)
		}
	}
	for _, b := range blocks {
		walk(b.Body)
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
