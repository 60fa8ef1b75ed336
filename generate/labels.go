package generate

import (
	"strconv"

	"github.com/neonform/neonform/config"
)

// labels hands out block labels that are unique among their siblings: the
// projects of the configuration, the branches of a project, the computes of
// a branch.
type labels map[string]bool

// take returns a label for name: the name itself when it is a valid label,
// else the label the configuration's own hint would suggest, else kind-name;
// fallback when name is empty. A label already taken gets -2, -3, ...
func (l labels) take(name, kind, fallback string) string {
	base := fallback
	if name != "" {
		base = config.LabelFrom(name)
		if base == "" {
			base = config.LabelFrom(kind + "-" + name)
		}
	}
	label := base
	for n := 2; l[label]; n++ {
		label = base + "-" + strconv.Itoa(n)
	}
	l[label] = true
	return label
}
