package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// goneWorld is a world whose project shop has n computes in the
// state whose endpoints were deleted outside neonform: a plan forgets
// them, in state-only steps.
func goneWorld(t testing.TB, n int) *world {
	t.Helper()
	w := newWorld(t, worldOptions{projects: []string{shop}})
	main, _, err := w.emu.EnsureBranch(shop, "main")
	if err != nil {
		t.Fatal(err)
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		st.Computes[fmt.Sprintf("shop.main.gone%d", i)] = &state.Compute{EndpointID: fmt.Sprintf("ep-gone-%08d", i), ProjectID: shop,
			BranchID: main.ID, Type: api.EndpointTypeReadOnly, BranchName: "main", Applied: state.Attributes{Name: fmt.Sprintf("gone%d", i), MinCU: 0.25, MaxCU: 1}}
	}
	if err := w.state.Write(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return w
}

// countingBackend counts the state's writes, and fails each from the
// failAt-th on (0: none), as a run killed before that write landed.
type countingBackend struct {
	*state.Local
	writes, failAt int
}

func (b *countingBackend) Write(ctx context.Context, s *state.State) error {
	b.writes++
	if b.failAt > 0 && b.writes >= b.failAt {
		return errors.New("killed before the write landed (by the test)")
	}
	return b.Local.Write(ctx, s)
}

// A run of state-only steps is recorded with one write, not one a step: a
// plan that forgets 2,000 gone computes writes the state once (before, 2,000
// times a state of up to 2,000 entries: quadratic), and the report and the
// hooks still have each step done.
func TestStateOnlyStepsAreRecordedTogether(t *testing.T) {
	const n = 2000
	w := goneWorld(t, n)
	p := w.plan(`project "shop" { id = "dark-sun-46453911" }`)
	if p.Summary.ForgetGone != n || len(p.Steps) != n {
		t.Fatalf("the plan forgets %d in %d steps, want %d", p.Summary.ForgetGone, len(p.Steps), n)
	}
	b := &countingBackend{Local: w.state}
	log := &logHook{b: &bytes.Buffer{}}
	rep, err := Apply(context.Background(), p, Options{Client: w.c, State: b, Hooks: []Hook{log}})
	if err != nil {
		t.Fatal(err)
	}
	if b.writes != 1 {
		t.Errorf("%d state-only steps wrote the state %d times, want once", n, b.writes)
	}
	if len(rep.Done) != n || rep.Counts.ForgotGone != n || !rep.Done[n-1].Recorded {
		t.Errorf("done %d, forgot %d, want %d each, recorded", len(rep.Done), rep.Counts.ForgotGone, n)
	}
	st, err := w.state.Read(context.Background())
	if err != nil || len(st.Computes) != 0 {
		t.Fatalf("the state after: %v, %d computes, want none", err, len(st.Computes))
	}
}

// Killed at any write, an apply that mixes calls and runs of state-only
// steps leaves a state from which the next plan is truthful: a step that
// called the service is stored by its own write, right after its call, and
// a run of state-only steps not yet written is planned again, the same. The
// next apply then converges, with no endpoint made twice.
func TestKilledAtAnyWriteTheNextPlanIsTruthful(t *testing.T) {
	const n = 5
	first := goneWorld(t, n)
	p := first.plan(oneReplica)
	b := &countingBackend{Local: first.state}
	if _, err := Apply(context.Background(), p, Options{Client: first.c, State: b}); err != nil {
		t.Fatal(err)
	}
	writes := b.writes
	// One project: a write for each call, and one for each run of
	// state-only steps (here the adoption of the primary and the forgets,
	// then the create of the replica).
	want, kinds := 0, ""
	for i, s := range p.Steps {
		kinds += " " + s.Kind.String()
		if s.Kind != diff.StepState || i == 0 || p.Steps[i-1].Kind != diff.StepState {
			want++
		}
	}
	if writes != want || want < 2 {
		t.Fatalf("the apply of steps%s wrote the state %d times, want %d (2 or more): a write a call and one a run of state-only steps", kinds, writes, want)
	}
	for failAt := 1; failAt <= writes; failAt++ {
		t.Run(fmt.Sprint("killed at write ", failAt), func(t *testing.T) {
			w := goneWorld(t, n)
			p := w.plan(oneReplica)
			b := &countingBackend{Local: w.state, failAt: failAt}
			rep, err := Apply(context.Background(), p, Options{Client: w.c, State: b})
			var inc *IncompleteError
			if !errors.As(err, &inc) {
				t.Fatalf("want an IncompleteError, got %v", err)
			}
			// What the state says was done is exactly what the report
			// says was recorded: nothing of a run whose write failed.
			st, err := w.state.Read(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range rep.Done {
				if d.Step.Gone && st.Computes[d.Step.Forget] != nil {
					t.Errorf("%s is reported forgotten, but the state still holds it", d.Step.Forget)
				}
			}
			for _, f := range rep.Failed {
				if f.Step.Kind == diff.StepState && st.Computes[f.Step.Forget] == nil {
					t.Errorf("%s failed to be recorded, but the state forgot it", f.Step.Forget)
				}
			}
			next := w.plan(oneReplica)
			var forgets []string
			for addr := range st.Computes {
				if _, gone := slices.BinarySearch(goneAddresses(n), addr); gone {
					forgets = append(forgets, addr)
				}
			}
			slices.Sort(forgets)
			if got := forgotten(next); !slices.Equal(got, forgets) {
				t.Errorf("the next plan forgets %v, want what the state still holds of the gone: %v", got, forgets)
			}
			w.mustApply(oneReplica)
			w.checkConverged(oneReplica, shop)
		})
	}
}

// goneAddresses are goneWorld's addresses, sorted.
func goneAddresses(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("shop.main.gone%d", i))
	}
	slices.Sort(out)
	return out
}

// forgotten are the addresses a plan forgets because their endpoint is gone, sorted.
func forgotten(p *diff.Plan) []string {
	var out []string
	for _, s := range p.Steps {
		if s.Gone {
			out = append(out, s.Forget)
		}
	}
	slices.Sort(out)
	return out
}
