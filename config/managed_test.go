package config

import (
	"testing"

	"github.com/neonform/neonform/internal/managed"
)

// Each managed attribute that a compute block sets has a decoder, and each
// decoder is of one: a new attribute half-wired into config fails here, and
// its samples in diff's TestEveryAttributeIsWiredThroughEveryUse check that
// the decoder reads every value into the Compute.
func TestEveryManagedArgumentIsDecoded(t *testing.T) {
	var schema []string
	for _, a := range computeSchema.Attributes {
		schema = append(schema, a.Name)
	}
	firsts := map[string]bool{}
	for _, a := range managed.All {
		if len(a.Arguments) == 0 {
			continue
		}
		firsts[a.Arguments[0]] = true
		if computeDecoders[a.Arguments[0]] == nil {
			t.Errorf("%s: no decoder in computeDecoders reads %v", a.Name, a.Arguments)
		}
		for _, arg := range a.Arguments {
			if !contains(schema, arg) {
				t.Errorf("%s: the compute block's schema does not take %s", a.Name, arg)
			}
			if a.Home != "" && attributeHomes[arg] != a.Home {
				t.Errorf("%s: a misplaced %s is sent to %q, want %q", a.Name, arg, attributeHomes[arg], a.Home)
			}
		}
	}
	for arg := range computeDecoders {
		if !firsts[arg] {
			t.Errorf("computeDecoders reads %s, which no managed attribute names first", arg)
		}
	}
}
