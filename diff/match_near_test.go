package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// A branch block whose name names no live branch is refused with the nearest
// names as a fact (diag.Near, quoted strings), which the plan model does not
// word; a view writes "Did you mean" after the sentence that says what is
// missing.
func TestBranchNotFoundRecordsTheNearestNames(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("dev", "devel", difftest.Compute("primary"))))
	live := liveOf(withBranches(liveProject(difftest.Proj), "main", difftest.BrMain, "dev1", "br-dev1", "dev2", "br-dev2", "release", "br-release"))
	_, diags := Build(cfg, state.New(), live, testOpts)
	if len(diags) != 1 || diags[0].Summary != "Branch not found" {
		t.Fatalf("want one Branch not found, got %v", diags)
	}
	d := diags[0]
	if !slices.Equal(d.Near.Names, []string{"dev1", "dev2"}) || !d.Near.Strings {
		t.Errorf("the near-miss is %+v, want the branch names dev1 and dev2", d.Near)
	}
	if strings.Contains(d.Detail, "Did you mean") {
		t.Errorf("the plan model words its near-miss: %s", d.Detail)
	}
	d.Word()
	want := `has no branch named "devel". Did you mean "dev1" or "dev2"? The branch must exist first`
	if !strings.Contains(d.Detail, want) {
		t.Errorf("as a view words it:\n%s\nwant it to say\n%s", d.Detail, want)
	}
}
