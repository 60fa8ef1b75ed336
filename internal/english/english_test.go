package english

import "testing"

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 files are"}, {1, "1 file is"}, {2, "2 files are"}} {
		if got := Plural(tt.n, "file is", "files are"); got != tt.want {
			t.Errorf("Plural(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
