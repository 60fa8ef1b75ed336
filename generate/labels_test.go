package generate

import (
	"strings"
	"testing"
)

func TestLabels(t *testing.T) {
	long := strings.Repeat("a", 80)
	for _, tc := range []struct {
		names, taken, want []string
	}{
		{names: []string{"main", "Feature/X", "dev"}, want: []string{"main", "feature-x", "dev"}},
		// A name that is a label keeps it, whatever the order.
		{names: []string{"Reports", "reports"}, want: []string{"reports-2", "reports"}},
		{names: []string{"a b", "a/b", "a-b"}, want: []string{"a-b-2", "a-b-3", "a-b"}},
		// Not starting with a letter: the kind comes first.
		{names: []string{"2024-archive", "_x"}, want: []string{"compute-2024-archive", "compute-_x"}},
		// Empty names take the fallback, after every named one.
		{names: []string{"", "fallback", ""}, want: []string{"fallback-2", "fallback", "fallback-3"}},
		// Labels the configuration has are taken.
		{names: []string{"shop"}, taken: []string{"shop"}, want: []string{"shop-2"}},
		{names: []string{long, long + "!"}, want: []string{long[:64], long[:64] + "-2"}},
	} {
		l := labels{}
		for _, n := range tc.taken {
			l[n] = true
		}
		got := l.assign(tc.names, "compute", func(int) string { return "fallback" })
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("assign(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
