package apply

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
)

// A plan that permits what the configuration forbids (here: a restart of a
// compute whose block now says allow_restart = false, from a plan made
// before) is refused before any request, with the state left as it was;
// the same plan applies when the configuration allows it.
func TestLoosenedPlanIsRefusedBeforeAnyCall(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	bigger := strings.Replace(oneReplica, `compute "reports" {`, `compute "reports" {
      size = 2`, 1)
	strict := strings.Replace(bigger, `type = "read_only"`, `type = "read_only"
      lifecycle {
        allow_restart = false
      }`, 1)
	p := w.plan(bigger)
	before, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w.emu.ResetStats()
	var out bytes.Buffer
	rep, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, Hooks: []Hook{&logHook{b: &out}}, Policy: policyOf(t, strict)})
	var loose *LoosenedPlanError
	if !errors.As(err, &loose) || rep != nil {
		t.Fatalf("apply: %v, %+v, want a LoosenedPlanError and no report", err, rep)
	}
	if !strings.Contains(err.Error(), "restart_idle_only of change shop.main.reports (step 1, PATCH ") {
		t.Errorf("error %q does not name the field and the step", err)
	}
	if n := w.emu.Stats().Total; n != 0 {
		t.Errorf("the service got %d requests, want none", n)
	}
	if after, _ := w.state.Read(context.Background()); after.Serial != before.Serial {
		t.Errorf("the state moved from serial %d to %d", before.Serial, after.Serial)
	}
	if _, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, Hooks: []Hook{&logHook{b: &out}}, Policy: policyOf(t, bigger)}); err != nil {
		t.Fatalf("the plan held to the configuration it was made from: %v", err)
	}
}

func policyOf(t *testing.T, src string) *diff.Policy {
	t.Helper()
	cfg, diags := config.LoadSources(t.TempDir(), map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return diff.PolicyOf(cfg, diags)
}
