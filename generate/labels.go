package generate

import (
	"strconv"

	"github.com/neonform/neonform/config"
)

// maxLabel is the longest label generate makes: a project's is its file's
// name, and a service's names may be longer than a file name can be.
const maxLabel = 64

// labels hands out block labels that are unique among their siblings: the
// projects of the configuration, the branches of a project, the computes of
// a branch.
type labels map[string]bool

// assign labels each of names, in order: a name that is a valid label keeps
// it, before any other name is made into a label, so that "reports" stays
// reports even beside "Reports" (reports-2); then the other names, as the
// configuration's own hint would fix them ("Feature/X" is feature-x), or
// kind-name when that does not start with a letter, cut to maxLabel
// characters; then the empty names,
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
	pass(func(name string) bool { return config.ValidLabel(name) && len(name) <= maxLabel }, func(i int) string { return names[i] })
	pass(func(name string) bool { return name != "" }, func(i int) string {
		fixed := config.LabelFrom(names[i])
		if fixed == "" {
			fixed = config.LabelFrom(kind + "-" + names[i])
		}
		return fixed[:min(len(fixed), maxLabel)] // ASCII: LabelFrom makes every other rune a dash
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
