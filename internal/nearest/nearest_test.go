package nearest

import (
	"slices"
	"testing"
)

func TestName(t *testing.T) {
	names := []string{"plan", "apply", "destroy"}
	for _, tt := range []struct{ given, want string }{
		{"paln", "plan"},    // two edits
		{"aply", "apply"},   // one edit
		{"dest", "destroy"}, // a start, further than two edits
		{"import", ""},      // nothing near
		{"d", ""},           // too short to be a start
	} {
		if got := Name(tt.given, names); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

// Every name as near as the nearest, in order; a nearer one replaces them.
func TestNames(t *testing.T) {
	names := []string{`p.r["pr-1"]`, `p.r["pr-2"]`, `p.r["feature"]`}
	if got, want := Names(`p.r["pr-6"]`, names), names[:2]; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	if got, want := Names(`p.r["pr-2"]`, names), names[1:2]; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	if got := Names(`p.r["main"]`, names); got != nil {
		t.Errorf("Names = %q, want none", got)
	}
}
