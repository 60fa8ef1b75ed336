package planfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/state"
)

// The plan file, edited: show (ReadFile) refuses what it can tell without
// the state, so it never renders a plan that apply would refuse for its
// calls or its changes.
func TestReadFileRefusesAnEditedPlan(t *testing.T) {
	path, _, _ := editedPlan(t, `"autoscaling_limit_max_cu": 4`, `"autoscaling_limit_max_cu": 8`)
	_, err := ReadFile(path)
	if err == nil || !strings.Contains(err.Error(), "does not hold together") ||
		!strings.Contains(err.Error(), `step 6 (shop.main.primary, PATCH /projects/dark-sun-46453911/endpoints/ep-primary) is not what the plan's changes make: its body is`) {
		t.Errorf("ReadFile: %v", err)
	}
}

// The cost is derived data that nothing apply does depends on (docs/cost.md,
// docs/plan-format.md#cost): a plan whose cost was edited still reads and
// verifies, and the steps apply carries out are the same.
func TestVerifyIgnoresTheCost(t *testing.T) {
	path, p, st := editedPlan(t, `"cu_hours_max": `, `"cu_hours_max": 9`)
	back, err := ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	if back.Changes[0].Cost.Before.CUHoursMax == p.Changes[0].Cost.Before.CUHoursMax {
		t.Fatal("the edited cost was not read")
	}
	plantest.CheckVerifies(t, back, st)
}

// editedPlan saves the busy scenario's plan with the first text from
// replaced by to, and returns its path, the plan as made and its state.
func editedPlan(t *testing.T, from, to string) (string, *diff.Plan, *state.State) {
	t.Helper()
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	edited := strings.Replace(string(b), from, to, 1)
	if edited == string(b) {
		t.Fatalf("the edit of %s did not apply", from)
	}
	os.WriteFile(path, []byte(edited), 0o600)
	return path, p, st
}
