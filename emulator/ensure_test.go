package emulator

import (
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// EnsureProject, EnsureBranch and SetProjectTier are what the embedded sandbox and
// the CLI scenarios use to make the world a configuration names, as a person would
// in the console.
func TestEnsureMakesWhatIsMissingOnce(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	created, err := s.emu.EnsureProject("dark-sun-46453911", "shop")
	if err != nil || !created {
		t.Fatalf("EnsureProject: %v, %v", created, err)
	}
	again, err := s.emu.EnsureProject("dark-sun-46453911", "other")
	if err != nil || again {
		t.Errorf("a second EnsureProject: %v, %v; want false, nil", again, err)
	}
	if _, err := s.emu.EnsureProject("Not An Id", ""); err == nil {
		t.Error("EnsureProject took an invalid id")
	}
	var p api.ProjectResponse
	s.call("GET", "/projects/dark-sun-46453911", nil).want(t, 200).decode(t, &p)
	var eps api.EndpointsResponse
	s.call("GET", "/projects/dark-sun-46453911/endpoints", nil).want(t, 200).decode(t, &eps)
	if p.Project.Name != "shop" || p.Project.RegionID != "aws-us-east-2" || p.Project.PgVersion != 17 ||
		len(eps.Endpoints) != 1 || eps.Endpoints[0].Type != api.EndpointTypeReadWrite || eps.Endpoints[0].AutoscalingLimitMaxCU != 1 {
		t.Errorf("project %+v with endpoints %+v, want shop in aws-us-east-2 with its 1 CU primary", p.Project, eps.Endpoints)
	}

	dev, created, err := s.emu.EnsureBranch("dark-sun-46453911", "dev")
	if err != nil || !created || dev.Name != "dev" {
		t.Fatalf("EnsureBranch: %+v, %v, %v", dev, created, err)
	}
	if same, created, err := s.emu.EnsureBranch("dark-sun-46453911", "dev"); err != nil || created || same.ID != dev.ID {
		t.Errorf("a second EnsureBranch: %s, %v, %v; want %s, false", same.ID, created, err, dev.ID)
	}
	if _, _, err := s.emu.EnsureBranch("nope-00000000", "dev"); err == nil {
		t.Error("EnsureBranch on a missing project did not fail")
	}

	must(t, s.emu.SetProjectTier("dark-sun-46453911", sizing.Free))
	wantCode(t, s.createEndpoint("dark-sun-46453911", map[string]any{"branch_id": dev.ID, "type": "read_only", "autoscaling_limit_min_cu": 4}), 400, codeBadRequest)
	s.createEndpoint("dark-sun-46453911", map[string]any{"branch_id": dev.ID, "type": "read_only", "autoscaling_limit_min_cu": 2}).want(t, 201)
	if err := s.emu.SetProjectTier("dark-sun-46453911", "gold"); err == nil {
		t.Error("SetProjectTier took an unknown tier")
	}
}

// The embedded sandbox makes projects as if made a while ago and not used
// since: nothing runs in them, and the primary has scaled to zero, so the
// first plan of a primary that must not be restarted while active works.
func TestEnsureIdleProjectHasScaledToZero(t *testing.T) {
	s := newService(t, Options{OpDelay: 2 * time.Second})
	created, err := s.emu.EnsureIdleProject("dark-sun-46453911", "shop")
	if err != nil || !created {
		t.Fatalf("EnsureIdleProject: %v, %v", created, err)
	}
	var eps api.EndpointsResponse
	s.call("GET", "/projects/dark-sun-46453911/endpoints", nil).want(t, 200).decode(t, &eps)
	if len(eps.Endpoints) != 1 || eps.Endpoints[0].CurrentState != api.EndpointStateIdle {
		t.Fatalf("endpoints %+v, want the primary idle", eps.Endpoints)
	}
	var ops api.OperationsResponse
	s.call("GET", "/projects/dark-sun-46453911/operations", nil).want(t, 200).decode(t, &ops)
	for _, op := range ops.Operations {
		if !op.Status.Terminal() {
			t.Errorf("operation %s (%s) is %s; want every operation over", op.ID, op.Action, op.Status)
		}
	}
	// It takes changes at once: no operation holds the project.
	s.call("PATCH", "/projects/dark-sun-46453911/endpoints/"+eps.Endpoints[0].ID, map[string]any{"endpoint": map[string]any{"suspend_timeout_seconds": 600}}).want(t, 200)
}
