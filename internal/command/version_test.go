package command

import (
	"runtime/debug"
	"testing"
)

// go install github.com/neonform/neonform@v0.2.0 records v0.2.0 as the
// main module's version: that is the version neonform reports.
func TestVersionIsTheModuleVersion(t *testing.T) {
	built := func(v string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/neonform/neonform", Version: v}}, true
		}
	}
	for _, tc := range []struct {
		set, module, want string
	}{
		{"", "v0.2.0", "v0.2.0"},
		{"", "v0.0.0-20261123101500-0123456789ab+dirty", "v0.0.0-20261123101500-0123456789ab+dirty"},
		{"", "(devel)", "devel"},
		{"v0.3.0", "(devel)", "v0.3.0"},
	} {
		if got := versionOf(tc.set, built(tc.module)); got != tc.want {
			t.Errorf("set %q, module %q: version %q, want %q", tc.set, tc.module, got, tc.want)
		}
	}
	if got := versionOf("", func() (*debug.BuildInfo, bool) { return nil, false }); got != "devel" {
		t.Errorf("without build information: %q", got)
	}
}
