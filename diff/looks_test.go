package diff

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// never is a looker whose context is never done.
func never() *looker { return newLooker(context.Background()) }

// lookingContext is a context never done that counts the looks at its Err
// by the function that looked (the caller of looker.stop, or of Err).
type lookingContext struct {
	context.Context
	by map[string]int
}

func (c *lookingContext) Err() error {
	pcs := make([]uintptr, 8)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndex(f.Function, "/")+1:]
		if name != "diff.(*looker).stop" || !more {
			c.by[name]++
			return nil
		}
	}
}

// bigProject is one project of n computes configured, in the state and
// live (each resized), n more in the state and live that the configuration
// no longer has (deleted), and one configured compute that is new (created,
// after looking through the branch's 2n endpoints for one to adopt).
func bigProject(n int) (*config.Config, *state.State, *Live) {
	st := stateWith("", nil)
	var computes []*config.Compute
	eps := make([]api.Endpoint, 0, 2*n)
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		computes = append(computes, difftest.Compute(name, difftest.ReadOnly, difftest.Named(name), difftest.CU(0.25, 2)))
		ep := difftest.Endpoint(fmt.Sprintf("ep-c-%08d", i), "br-main", difftest.RO, difftest.EpName(name))
		st.Computes["p0.main."+name] = LiveValues(&ep).Record(ep.ID, "proj-0", false)
		old := difftest.Endpoint(fmt.Sprintf("ep-old-%08d", i), "br-main", difftest.RO)
		st.Computes[fmt.Sprintf("p0.main.old%d", i)] = LiveValues(&old).Record(old.ID, "proj-0", false)
		eps = append(eps, ep, old)
	}
	computes = append(computes, difftest.Compute("new", difftest.ReadOnly, difftest.Named("new")))
	cfg := difftest.CfgOf(difftest.Project("p0", "proj-0", difftest.BranchID("main", "br-main", computes...)))
	return cfg, st, liveOf(liveProject("proj-0", eps...))
}

// Planning one project of thousands of computes looks at its context in
// every pass that goes through them: identifying the computes (and looking
// for an endpoint to adopt), planning each, the deletes, the unclaimed
// endpoints, then deriving and ordering the steps. Without a look in one of
// them, an interrupt waits for it to end: with 250,000 computes, seconds
// (docs/apply.md, Interrupting). Cancelled at any of its looks, Build
// returns no plan and ctx's error.
func TestPlanningLooksInEveryPassOverAProject(t *testing.T) {
	const n = 2*interruptEvery + 1 // two looks, at least, in each pass
	cfg, st, live := bigProject(n)
	looking := &lookingContext{Context: context.Background(), by: map[string]int{}}
	p, diags, err := BuildContext(looking, cfg, st, live, testOpts)
	if err != nil || diags.HasErrors() || len(p.Changes) != 2*n+1 {
		t.Fatalf("the whole plan: %v, %v, want %d changes", err, diags, 2*n+1)
	}
	for _, pass := range []string{"diff.(*projectPlan).identify", "diff.(*projectPlan).adoptable", "diff.(*projectPlan).plan",
		"diff.(*projectPlan).planRemovals", "diff.(*projectPlan).planUnclaimed", "diff.(*deriver).deriveProject", "diff.(*deriver).sortOps"} {
		if looking.by[pass] < 2 {
			t.Errorf("%s looked at the context %d times over %d computes, want 2 or more: %v", pass, looking.by[pass], n, looking.by)
		}
	}
	total := 0
	for _, k := range looking.by {
		total += k
	}
	for looks := range total {
		ctx := &cancelledAfter{Context: context.Background(), looks: looks}
		if p, _, err := BuildContext(ctx, cfg, st, live, testOpts); err != context.Canceled || p != nil {
			t.Fatalf("cancelled after %d of %d looks: plan %v, err %v; want no plan and %v", looks, total, p != nil, err, context.Canceled)
		}
	}
}

// Checking a saved plan of thousands of changes, as apply (Verify) and show
// (Check) do, looks at the context in every pass: deriving the steps again,
// comparing them, the changes and the calls, and the rules of every plan.
// Cancelled at any of its looks, each returns ctx's error.
func TestCheckingAPlanLooksInEveryPass(t *testing.T) {
	const n = 2*interruptEvery + 1 // two looks, at least, in each pass
	cfg, st, live := bigProject(n)
	p := mustBuild(t, cfg, st, live)
	for _, c := range []struct {
		name   string
		check  func(ctx context.Context) error
		passes []string
	}{
		{"Verify", func(ctx context.Context) error { _, err := VerifyContext(ctx, p, st); return err },
			[]string{"diff.(*deriver).deriveProject", "diff.(*deriver).sortOps", "diff.sameSteps", "diff.sameDerived", "diff.checkSteps"}},
		{"Check", func(ctx context.Context) error { return CheckContext(ctx, p) },
			[]string{"diff.(*deriver).deriveProject", "diff.(*deriver).sortOps", "diff.sameCalls", "diff.sameDerived", "diff.checkSteps"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			looking := &lookingContext{Context: context.Background(), by: map[string]int{}}
			if err := c.check(looking); err != nil {
				t.Fatal(err)
			}
			total := 0
			for _, pass := range c.passes {
				if looking.by[pass] < 2 {
					t.Errorf("%s looked at the context %d times over %d changes, want 2 or more: %v", pass, looking.by[pass], 2*n, looking.by)
				}
			}
			for _, k := range looking.by {
				total += k
			}
			for looks := range total {
				ctx := &cancelledAfter{Context: context.Background(), looks: looks}
				if err := c.check(ctx); err != context.Canceled {
					t.Fatalf("cancelled after %d of %d looks: %v, want %v", looks, total, err, context.Canceled)
				}
			}
		})
	}
}
