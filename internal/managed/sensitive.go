package managed

import (
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// SensitiveValue is what every view, error, log line and JSON document prints
// in place of a value that came from a variable declared sensitive, when it
// does not know the variable (a plan or state written before it was kept).
const SensitiveValue = "(sensitive value)"

// HiddenValue is what every view, error, log line and JSON document prints in
// place of a value that came from the sensitive variables vars:
// "(sensitive value from var.db_password)", SensitiveValue when vars is
// empty (docs/configuration.md, Variables). It is the only place that words
// it (config.HiddenValue and diff.HiddenValue are this). The names come
// from a plan or state file, so one that is not a variable's name (an edit:
// neonform writes none) is left out rather than printed: it could be markup
// or terminal control.
func HiddenValue(vars []string) string {
	var names []string
	for _, v := range vars {
		if hclsyntax.ValidIdentifier(v) {
			names = append(names, v)
		}
	}
	if len(names) == 0 {
		return SensitiveValue
	}
	return "(sensitive value from var." + strings.Join(names, ", var.") + ")"
}
