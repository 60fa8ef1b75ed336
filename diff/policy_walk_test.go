package diff

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// policyWalks is how many random plans TestLoosenedPlansAreRefused edits.
const policyWalks = 200

// Random configurations of replicas, some with allow_restart = false,
// prevent_destroy or sensitive settings, planned against random live
// endpoints; then one field a reviewer relies on, of one random change, is
// edited toward looser (restart_idle_only or prevent_destroy to false, an
// attribute taken out of sensitive), with the steps and summary made to
// match as a careful editor would. The plan as made is held to its
// configuration; the edited one is refused, naming the field. A failure
// names its seed.
func TestLoosenedPlansAreRefused(t *testing.T) {
	edited := map[string]int{}
	for seed := uint64(1); seed <= policyWalks; seed++ {
		rng := rand.New(rand.NewPCG(seed, 29))
		cfg, st, live := randomPolicyWorld(rng)
		p, diags := Build(cfg, st, live, testOpts)
		if diags.HasErrors() {
			t.Fatalf("seed %d: Build: %s", seed, diags.String())
		}
		steps, err := Verify(p, st)
		if err != nil {
			t.Fatalf("seed %d: Verify: %v", seed, err)
		}
		pol := PolicyOf(cfg, nil)
		if err := HoldTo(p, st, steps, pol); err != nil {
			t.Fatalf("seed %d: the plan as made is refused: %v", seed, err)
		}
		field, addr := loosen(rng, p)
		if field == "" {
			continue
		}
		d, err := rederive(context.Background(), p, st)
		if err != nil {
			t.Fatalf("seed %d: the edit of %s's %s does not derive: %v", seed, addr, field, err)
		}
		p.Steps, p.Summary = d.Steps, d.Summary
		if steps, err = Verify(p, st); err != nil {
			t.Fatalf("seed %d: Verify refuses the edit of %s's %s, which should be consistent: %v", seed, addr, field, err)
		}
		edited[field]++
		err = HoldTo(p, st, steps, pol)
		if err == nil || !strings.Contains(err.Error(), field+" of change "+addr+" (") {
			t.Errorf("seed %d: %s's %s loosened: HoldTo said %v", seed, addr, field, err)
		}
	}
	for _, field := range []string{"restart_idle_only", "prevent_destroy", "sensitive"} {
		if edited[field] < policyWalks/10 {
			t.Errorf("only %d of %d plans had their %s loosened: the walk tests little", edited[field], policyWalks, field)
		}
	}
}

// randomPolicyWorld is 1 to 6 replicas on main, each recorded and live,
// some configured with other values, a guard or sensitive settings.
func randomPolicyWorld(rng *rand.Rand) (*config.Config, *state.State, *Live) {
	var computes []*config.Compute
	var eps []api.Endpoint
	recorded := map[string]api.Endpoint{}
	for i := range 1 + rng.IntN(6) {
		label := fmt.Sprintf("r%d", i)
		ep := difftest.Endpoint("ep-"+label, difftest.BrMain, difftest.RO, difftest.EpName(label))
		opts := []difftest.Opt{difftest.ReadOnly}
		if rng.IntN(2) == 0 {
			opts = append(opts, difftest.CU(2, 2)) // a restart
		}
		if rng.IntN(2) == 0 {
			opts = append(opts, difftest.NoRestart)
		}
		if rng.IntN(2) == 0 {
			opts = append(opts, difftest.PreventDestroy)
		}
		if rng.IntN(3) == 0 {
			opts = append(opts, difftest.PG("work_mem", "64MB"), secretSettings)
		}
		eps, recorded["shop.main."+label] = append(eps, ep), ep
		if rng.IntN(6) > 0 { // else no longer configured: deleted
			computes = append(computes, difftest.Compute(label, opts...))
		}
	}
	st := stateWith(difftest.Proj, recorded)
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, computes...)))
	return cfg, st, liveOf(liveProject(difftest.Proj, eps...))
}

// loosen edits one field of one change that says more than the least it
// could, and names the field and the change; "" when no change has one.
func loosen(rng *rand.Rand, p *Plan) (field, address string) {
	type edit struct {
		field string
		ch    *Change
	}
	var edits []edit
	for i := range p.Changes {
		ch := &p.Changes[i]
		if ch.RestartIdleOnly {
			edits = append(edits, edit{"restart_idle_only", ch})
		}
		if ch.PreventDestroy {
			edits = append(edits, edit{"prevent_destroy", ch})
		}
		if len(ch.Sensitive) > 0 && ch.Action != Delete {
			edits = append(edits, edit{"sensitive", ch})
		}
	}
	if len(edits) == 0 {
		return "", ""
	}
	e := edits[rng.IntN(len(edits))]
	switch e.field {
	case "restart_idle_only":
		e.ch.RestartIdleOnly = false
	case "prevent_destroy":
		e.ch.PreventDestroy = false
	case "sensitive":
		drop := e.ch.Sensitive[rng.IntN(len(e.ch.Sensitive))]
		e.ch.Sensitive = slices.DeleteFunc(slices.Clone(e.ch.Sensitive), func(s string) bool { return s == drop })
		delete(e.ch.SensitiveFrom, drop)
		for i := range e.ch.Attributes {
			if Hides([]string{drop}, e.ch.Attributes[i].Name) {
				e.ch.Attributes[i].Sensitive, e.ch.Attributes[i].SensitiveFrom = false, nil
			}
		}
	}
	return e.field, e.ch.Address
}
