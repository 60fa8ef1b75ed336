package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// settingsVariables are the variables the neonform block uses, directly or
// through locals, sorted. Applying a saved plan reads the neonform block,
// and the lifecycle blocks and for_each of the computes (noteApplyVariables):
// a -var for any other variable would change nothing, and is refused rather
// than ignored (Settings.Variables).
func (l *loader) settingsVariables(blocks []*hclsyntax.Block) []string {
	used := map[string]bool{}
	var walk func(*hclsyntax.Body)
	walk = func(b *hclsyntax.Body) {
		for _, a := range b.Attributes {
			l.variablesOf(a.Expr, used, map[string]bool{})
		}
		for _, nested := range b.Blocks {
			walk(nested.Body)
		}
	}
	for _, b := range blocks {
		walk(b.Body)
	}
	return sortedSet(used)
}

// noteApplyVariables adds the variables e uses to Settings.Variables: e is a
// lifecycle guard or a for_each, which applying a saved plan reads too (the
// plan is held to the lifecycle blocks of the configuration it is applied
// with).
func (l *loader) noteApplyVariables(e hcl.Expression) {
	used := map[string]bool{}
	for _, v := range l.cfg.Settings.Variables {
		used[v] = true
	}
	l.variablesOf(e, used, map[string]bool{})
	l.cfg.Settings.Variables = sortedSet(used)
}

// variablesOf adds the variables e refers to, directly or through locals,
// to used.
func (l *loader) variablesOf(e hcl.Expression, used, seenLocal map[string]bool) {
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
				l.variablesOf(loc.Attr.Expr, used, seenLocal)
			}
		}
	}
}

func sortedSet(set map[string]bool) []string {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
