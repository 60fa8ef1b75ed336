package command

import "testing"

// A saved plan records its configuration's directory relative to itself,
// and never a path from the root: when the two share only the root, it
// records nothing.
func TestConfigDirForIsRelativeAndNeverFromTheRoot(t *testing.T) {
	for _, c := range []struct{ out, dir, want string }{
		{"/work/repo/plan.json", "/work/repo/infra", "infra"},
		{"/work/repo/infra/plan.json", "/work/repo/infra", "."},
		{"/work/repo/plans/plan.json", "/work/repo/infra", "../infra"},
		{"/work/repo/a/b/plan.json", "/work/repo/infra/prod", "../../infra/prod"},
		{"/tmp/plan.json", "/work/repo/infra", ""},
		{"/plan.json", "/work/repo/infra", ""},
	} {
		if got := configDirFor(c.out, c.dir); got != c.want {
			t.Errorf("configDirFor(%q, %q) = %q, want %q", c.out, c.dir, got, c.want)
		}
	}
}
