package diff

import (
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
)

// Argument is one argument of a compute block, as generate writes it.
type Argument struct {
	Name  string
	Value cty.Value
}

// BlockArguments are the arguments of a compute block that make it describe
// live, given what an empty block of the same label means (def): those of
// exactly the attributes that differ from def by the table's equality
// rules, each written once, as the table's entries write them. So a value at
// the service's default is left out, and a size is written whole.
func BlockArguments(def, live Values) ([]Argument, error) {
	var out []Argument
	written := map[string]bool{}
	for _, d := range Differences(def, live) {
		at := attributeNamed(d.Name)
		if at == nil {
			return nil, fmt.Errorf("generate does not know how to write the attribute %s", d.Name)
		}
		for _, arg := range at.arguments(&live) {
			if !written[arg.Name] {
				written[arg.Name] = true
				out = append(out, arg)
			}
		}
	}
	return out, nil
}

// Writers of arguments, for the table's entries.

func stringArgument(name, s string) []Argument {
	return []Argument{{name, cty.StringVal(s)}}
}

// sizeArguments are a size as a compute block writes it: size when it is
// fixed, else min_cu and max_cu.
func sizeArguments(v *Values) []Argument {
	s := v.size()
	if s.Fixed() {
		return []Argument{{"size", number(s.Min)}}
	}
	return []Argument{{"min_cu", number(s.Min)}, {"max_cu", number(s.Max)}}
}

// number is a size as the configuration writes it: 0.25, 1, 4.
func number(cu float64) cty.Value {
	return cty.NumberVal(new(big.Float).SetFloat64(cu))
}
