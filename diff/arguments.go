package diff

import (
	"fmt"

	"github.com/neonform/neonform/internal/managed"
)

// BlockArguments are the arguments of a compute block that make it describe
// live, given what an empty block of the same label means (def): those of
// exactly the attributes that differ from def by the table's equality
// rules, each written once, as the table's entries write them. So a value at
// the service's default is left out, and a size is written whole.
func BlockArguments(def, live Values) ([]Argument, error) {
	var out []Argument
	written := map[string]bool{}
	for _, d := range Differences(def, live) {
		at := managed.Named(d.Name)
		if at == nil {
			return nil, fmt.Errorf("generate does not know how to write the attribute %s", d.Name)
		}
		for _, arg := range at.Write(live.table()) {
			if !written[arg.Name] {
				written[arg.Name] = true
				out = append(out, arg)
			}
		}
	}
	return out, nil
}
