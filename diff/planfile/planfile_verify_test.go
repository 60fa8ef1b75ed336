package planfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff/internal/plantest"
)

// The plan file, edited: show (ReadFile) refuses what it can tell without
// the state, so it never renders a plan that apply would refuse for its
// calls or its changes.
func TestReadFileRefusesAnEditedPlan(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	edited := strings.Replace(string(b), `"autoscaling_limit_max_cu": 4`, `"autoscaling_limit_max_cu": 8`, 1)
	if edited == string(b) {
		t.Fatal("the edit did not apply")
	}
	os.WriteFile(path, []byte(edited), 0o600)
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
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	edited := strings.ReplaceAll(string(b), `"cu_hours_max": `, `"cu_hours_max": 9`)
	if edited == string(b) {
		t.Fatal("the edit did not apply")
	}
	os.WriteFile(path, []byte(edited), 0o600)
	back, err := ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	if back.Cost.After.CUHoursMax == p.Cost.After.CUHoursMax {
		t.Fatal("the edited cost was not read")
	}
	plantest.CheckVerifies(t, back, st)
}
