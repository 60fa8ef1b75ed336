package generate

import (
	"strconv"

	"github.com/neonform/neonform/config"
)

// labels hands out block labels that are unique among their siblings: the
// projects of the configuration, the branches of a project, the computes of
// a branch.
type labels map[string]bool

// assign labels each of names, in order: a name that is a valid label keeps
// it, before any other name is made into a label, so that "reports" stays
// reports even beside "Reports" (reports-2); then the other names, as the
// configuration's own hint would fix them ("Feature/X" is feature-x), or
// kind-name when that does not start with a letter; then the empty names,
// which take fallback(i). A label already taken gets -2, -3, ...
func (l labels) assign(names []string, kind string, fallback func(i int) string) []string {
	out := make([]string, len(names))
	pass := func(want func(name string) bool, base func(i int) string) {
		for i, name := range names {
			if out[i] == "" && want(name) {
				out[i] = l.take(base(i))
			}
		}
	}
	pass(config.ValidLabel, func(i int) string { return names[i] })
	pass(func(name string) bool { return name != "" }, func(i int) string {
		if fixed := config.LabelFrom(names[i]); fixed != "" {
			return fixed
		}
		return config.LabelFrom(kind + "-" + names[i])
	})
	pass(func(string) bool { return true }, fallback)
	return out
}

// take returns base, or base-N for the first N from 2 that is free.
func (l labels) take(base string) string {
	label := base
	for n := 2; l[label]; n++ {
		label = base + "-" + strconv.Itoa(n)
	}
	l[label] = true
	return label
}
