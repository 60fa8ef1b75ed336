package managed

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Argument is one argument of a compute block, as generate writes it
// (diff.BlockArguments); diff.Argument is this type.
type Argument struct {
	Name  string
	Value cty.Value
}

// Writers of arguments, for the table's entries.

func stringArgument(name, s string) []Argument {
	return []Argument{{name, cty.StringVal(s)}}
}

// writeSize writes a size as a compute block writes it: size when it is
// fixed, else min_cu and max_cu.
func writeSize(v *Values) []Argument {
	s := v.Size()
	if s.Fixed() {
		return []Argument{{"size", number(s.Min)}}
	}
	return []Argument{{"min_cu", number(s.Min)}, {"max_cu", number(s.Max)}}
}

// number is a size as the configuration writes it: 0.25, 1, 4.
func number(cu float64) cty.Value {
	return cty.NumberVal(new(big.Float).SetFloat64(cu))
}

// formatSettings prints Postgres settings as the configuration writes them,
// with each value as value prints it: { work_mem = "64MB" }, keys sorted;
// {} when there are none.
func formatSettings(m map[string]string, value func(string) string) string {
	if len(m) == 0 {
		return "{}"
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+" = "+value(m[k]))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// FormatSuspend prints a suspend timeout the way the configuration writes it:
// "default (5m)", "never", "5m", "1h30m", "1m30s".
func FormatSuspend(s int64) string {
	switch {
	case s == SuspendDefault:
		return "default (" + FormatSuspend(ServiceDefaultSuspend) + ")"
	case s < 0: // SuspendNever; nothing else below 0 is a timeout
		return "never"
	}
	h, m, sec := s/3600, s/60%60, s%60
	var b strings.Builder
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if sec > 0 {
		fmt.Fprintf(&b, "%ds", sec)
	}
	return b.String()
}
