package diff

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// sortSeed replays one walk of TestSortOpsIsTheSelectionSort:
//
//	go test ./diff -run TestSortOpsIsTheSelectionSort -sort-seed 17
var sortSeed = flag.Uint64("sort-seed", 0, "TestSortOpsIsTheSelectionSort: replay this seed alone")

// TestSortOpsIsTheSelectionSort walks random step graphs (ties of rank and
// address, a step waiting twice for another, waits on a step of no graph,
// cycles) and checks that the heap sort places the steps exactly as the
// selection sort it replaced did, which looked at every step again for each
// one placed, and leaves over the same ones when they form a cycle: plans
// made before keep their order, and Verify accepts the plans saved then.
func TestSortOpsIsTheSelectionSort(t *testing.T) {
	seeds := []uint64{*sortSeed}
	if *sortSeed == 0 {
		seeds = seeds[:0]
		for s := range uint64(2000) {
			seeds = append(seeds, s+1)
		}
	}
	for _, seed := range seeds {
		d := randomOps(rand.New(rand.NewPCG(seed, 0x6f72646572)))
		wantOut, wantDone := selectionSortOps(d.ops)
		gotOut, cycle, err := d.sortOps(context.Background())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !cmp.Equal(opNames(gotOut), opNames(wantOut)) || (cycle != nil) != (len(wantOut) < len(d.ops)) {
			t.Fatalf("seed %d (replay: go test ./diff -run TestSortOpsIsTheSelectionSort -sort-seed %d):\nsteps %s\nheap sort      %v (cycle: %v)\nselection sort %v",
				seed, seed, describeOps(d.ops), opNames(gotOut), cycle != nil, opNames(wantOut))
		}
		if cycle != nil {
			if want := d.cycleProblem(func(o *op) bool { return wantDone[o] }); !cmp.Equal(*cycle, *want) {
				t.Fatalf("seed %d: cycle %+v, want %+v", seed, *cycle, *want)
			}
		}
	}
}

// An interrupt stops the ordering of a large project: sortOps returns ctx's
// error, not an order.
func TestSortOpsStopsWhenInterrupted(t *testing.T) {
	d := &deriver{}
	for i := range 3 * interruptEvery {
		d.addOp(&op{step: Step{Kind: StepState, Address: fmt.Sprintf("p.main.c%d", i)}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, _, err := d.sortOps(ctx); err != context.Canceled || out != nil {
		t.Errorf("sortOps = %d steps, %v; want none and %v", len(out), err, context.Canceled)
	}
}

// selectionSortOps is the sort sortOps replaced, kept as the definition of
// the order: the best ready step (opBefore) among all those not yet placed,
// again and again. It returns the steps placed and which they are.
func selectionSortOps(ops []*op) ([]*op, map[*op]bool) {
	done := make(map[*op]bool, len(ops))
	out := make([]*op, 0, len(ops))
	ready := func(o *op) bool {
		for _, d := range o.deps {
			if !done[d] {
				return false
			}
		}
		return true
	}
	for len(out) < len(ops) {
		var best *op
		for _, o := range ops {
			if !done[o] && ready(o) && (best == nil || opBefore(o, best)) {
				best = o
			}
		}
		if best == nil {
			return out, done
		}
		done[best] = true
		out = append(out, best)
	}
	return out, done
}

// randomOps is a project's steps as derive makes them: a few addresses (so
// that two steps of one address, such as a replacement's create and delete,
// tie on it), urgent steps, state-only steps, and waits.
func randomOps(rng *rand.Rand) *deriver {
	d := &deriver{}
	n := rng.IntN(40)
	addresses := 1 + rng.IntN(n+1)
	kinds := []StepKind{StepCreate, StepUpdate, StepDelete, StepState}
	for range n {
		d.addOp(&op{
			step:   Step{Kind: kinds[rng.IntN(len(kinds))], Address: fmt.Sprintf("shop.main.c%d", rng.IntN(addresses))},
			urgent: rng.IntN(5) == 0,
		})
	}
	outsider := &op{step: Step{Kind: StepDelete, Address: "shop.main.elsewhere"}}
	for _, o := range d.ops {
		for range rng.IntN(3) {
			switch r := rng.IntN(100); {
			case r < 2:
				o.deps = append(o.deps, outsider) // never placed: a cycle
			case r < 6:
				o.deps = append(o.deps, d.ops[rng.IntN(n)]) // anywhere: perhaps a cycle
			case o.seq > 0:
				o.deps = append(o.deps, d.ops[rng.IntN(o.seq)]) // an earlier step
			}
		}
		if len(o.deps) > 0 && rng.IntN(10) == 0 {
			o.deps = append(o.deps, o.deps[0]) // the same wait twice
		}
		if rng.IntN(8) == 0 {
			o.arrives = "br-main" // what cycleProblem names
		}
	}
	return d
}

func opNames(ops []*op) []string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = fmt.Sprintf("%d:%s", o.seq, o.step.Address)
	}
	return names
}

func describeOps(ops []*op) string {
	s := ""
	for _, o := range ops {
		var deps []int
		for _, d := range o.deps {
			deps = append(deps, d.seq)
		}
		s += fmt.Sprintf("\n  %d %s %s urgent=%v after %v", o.seq, o.step.Kind, o.step.Address, o.urgent, deps)
	}
	return s
}

// An interrupt while a large project is planned stops Build with ctx's
// error and no plan, also when it comes once the project's steps are being
// ordered (after the looks between projects).
func TestBuildStopsWhenInterrupted(t *testing.T) {
	cfg, st, live := goneWorld(3*interruptEvery, 3*interruptEvery)
	for _, looks := range []int{0, 1, 2, 3} {
		ctx := &cancelledAfter{Context: context.Background(), looks: looks}
		p, diags, err := BuildContext(ctx, cfg, st, live, testOpts)
		if err != context.Canceled || p != nil || diags != nil {
			t.Errorf("cancelled after %d looks: plan %v, %v, %v; want no plan and %v", looks, p != nil, diags, err, context.Canceled)
		}
	}
}

// cancelledAfter is a context that is done from its looks+1st Err on.
type cancelledAfter struct {
	context.Context
	looks int
}

func (c *cancelledAfter) Err() error {
	if c.looks--; c.looks < 0 {
		return context.Canceled
	}
	return nil
}

// Inside one project of thousands of changes, every place Build looks at
// ctx stops it: between projects, every 1,024 changes derived, before
// forgetting the gone computes and before the drift, and while ordering.
// A plan of 3,000 deletes in one project looks often enough that no
// stretch of it runs unchecked (docs/apply.md, Interrupting).
func TestBuildStopsAtEveryLookInsideAProject(t *testing.T) {
	const n = 3 * interruptEvery
	st := stateWith("", nil)
	cfg := difftest.CfgOf(difftest.Project("p0", "proj-0"))
	eps := make([]api.Endpoint, 0, n)
	for i := range n {
		ep := difftest.Endpoint(fmt.Sprintf("ep-old-%08d", i), "br-main", difftest.RO)
		st.Computes[fmt.Sprintf("p0.main.c%d", i)] = LiveValues(&ep).Record(ep.ID, "proj-0", false)
		eps = append(eps, ep)
	}
	live := liveOf(liveProject("proj-0", eps...))
	counting := &countingContext{Context: context.Background()}
	p, diags, err := BuildContext(counting, cfg, st, live, testOpts)
	if err != nil || diags.HasErrors() || len(p.Changes) != n {
		t.Fatalf("the whole plan: %v, %v, %d changes, want %d", err, diags, len(p.Changes), n)
	}
	// 3,000 changes: 2 looks while deriving them, 2 around the gone and
	// the drift, 2 while ordering 3,000 steps, and those between projects
	// and in the planning before them (6 before the looks inside derive).
	if counting.looks < 10 {
		t.Fatalf("Build looked at its context %d times over 3,000 changes in one project, want 10 or more", counting.looks)
	}
	for looks := range counting.looks {
		ctx := &cancelledAfter{Context: context.Background(), looks: looks}
		if p, _, err := BuildContext(ctx, cfg, st, live, testOpts); err != context.Canceled || p != nil {
			t.Errorf("cancelled after %d of %d looks: plan %v, err %v; want no plan and %v", looks, counting.looks, p != nil, err, context.Canceled)
		}
	}
}

// countingContext counts the looks at Err of a context never done.
type countingContext struct {
	context.Context
	looks int
}

func (c *countingContext) Err() error {
	c.looks++
	return nil
}
