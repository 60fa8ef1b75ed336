package apply

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/emulator"
)

// The model test walks random configurations and random changes made
// outside neonform, and after every step checks the promises of a plan and
// its apply (docs/development.md). A fixed set of seeds runs with the other
// tests; -walks runs more, -seed replays one:
//
//	go test ./apply/ -run 'TestModel$' -walks 500
//	go test ./apply/ -run 'TestModel$' -seed 17
//	go test ./apply/ -run TestModelFaults -walks 100
var (
	modelWalks = flag.Int("walks", 0, "model test: how many walks to run (seeds 1..N) instead of the fixed set")
	modelSeed  = flag.Uint64("seed", 0, "model test: replay the walk of this seed alone")
)

const (
	modelFixedWalks      = 40 // the walks of TestModel in go test ./...
	modelFixedFaultWalks = 8  // and of TestModelFaults
	modelSteps           = 12 // the configurations of a walk
	modelFaultSteps      = 8
)

// TestModel walks random configurations and changes made outside neonform.
// After each step: plan succeeds; every resize or settings change of an
// existing endpoint is marked restart or worse; apply of the saved plan, read
// back from its file, succeeds and sends exactly the plan's calls; the next
// plan is empty; the live endpoints are what the configuration says; the
// endpoints nobody configured are untouched.
func TestModel(t *testing.T) {
	runModel(t, "TestModel$", modelFixedWalks, func(mw *modelWalk) { mw.walk(modelSteps, mw.step) })
}

// TestModelFaults walks the same with injected faults and lost answers:
// apply may fail, but the next plan and apply converge, with no duplicate
// endpoint and no change made twice.
func TestModelFaults(t *testing.T) {
	runModel(t, "TestModelFaults", modelFixedFaultWalks, func(mw *modelWalk) { mw.walk(modelFaultSteps, mw.faultStep) })
}

func runModel(t *testing.T, name string, fixed int, walk func(*modelWalk)) {
	runModelOn(t, name, fixed, worldOptions{}, walk)
}

// runModelOn runs the walks in worlds made with o (its projects and clock are the
// walk's own).
func runModelOn(t *testing.T, name string, fixed int, o worldOptions, walk func(*modelWalk)) {
	var seeds []uint64
	switch {
	case *modelSeed != 0:
		seeds = []uint64{*modelSeed}
	case *modelWalks > 0:
		for i := range *modelWalks {
			seeds = append(seeds, uint64(i+1))
		}
	default:
		for i := range fixed {
			seeds = append(seeds, uint64(i+1))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			mw := newModelWalk(t, seed, o)
			mw.replay = fmt.Sprintf("go test ./apply/ -run '%s' -seed %d", name, seed)
			walk(mw)
		})
	}
}

// modelWalk is one walk: its world, its configuration, and what happened so
// far, for the report of a failure.
type modelWalk struct {
	t         testing.TB
	seed      uint64
	replay    string // the command that replays the walk
	rng       *rand.Rand
	gen       *modelGenerator
	cfg       *modelConfig
	w         *world
	clock     *emulator.FakeClock
	branchIDs map[string]map[string]string // project id -> branch name -> id
	// outsideNames numbers the names given outside neonform.
	outsideNames int
	// made: the endpoints an apply made (fault walks), which must be managed.
	made map[string]bool
	// stepsLeft is how many steps the walk has after the current one.
	stepsLeft int
	// kept: the endpoint each compute block was after the last step, and
	// its type then.
	kept    map[*modelCompute]keptEndpoint
	history []modelStepRecord
	// failures of the current step.
	failures []string
	// held: connections to the computes, held across each apply (real Postgres
	// walks; nil otherwise).
	held *heldConnections
}

type modelStepRecord struct {
	hcl     string
	edits   []string
	outside []string
	notes   []string // what the step did, e.g. an apply that failed under faults
}

var modelProjects = []string{"dark-sun-46453911", "hidden-river-50598307"}

func newModelWalk(t testing.TB, seed uint64, o worldOptions) *modelWalk {
	clock := emulator.NewFakeClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	o.projects, o.clock = modelProjects, clock
	w := newWorld(t, o)
	mw := &modelWalk{t: t, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x6d6f64656c)), w: w, clock: clock,
		branchIDs: map[string]map[string]string{}, made: map[string]bool{},
		kept: map[*modelCompute]keptEndpoint{}}
	for _, id := range modelProjects {
		if _, _, err := w.emu.EnsureBranch(id, "qa"); err != nil {
			t.Fatal(err)
		}
		branches, err := w.c.ListBranches(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		mw.branchIDs[id] = map[string]string{}
		for _, b := range branches {
			mw.branchIDs[id][b.Name] = b.ID
		}
	}
	mw.gen = &modelGenerator{rng: mw.rng, foreignPrimary: mw.foreignPrimary,
		foreignReplicas: mw.foreignReplicas}
	mw.cfg = mw.gen.newConfig(modelProjects)
	return mw
}

// walk runs steps: each changes the configuration (but the first) and the
// world outside neonform, then runs step, and stops at the first failure.
func (mw *modelWalk) walk(steps int, step func(context.Context, int)) {
	ctx := context.Background()
	for n := range steps {
		if n > 0 {
			mw.gen.change(mw.cfg)
		}
		rec := modelStepRecord{edits: mw.cfg.edits}
		rec.outside = mw.outside(ctx)
		rec.hcl = mw.cfg.hcl()
		mw.history = append(mw.history, rec)
		mw.stepsLeft = steps - 1 - n
		step(ctx, n)
	}
}

// step plans the configuration, applies the saved plan and checks every
// promise.
func (mw *modelWalk) step(ctx context.Context, n int) {
	if mw.held != nil {
		mw.held.connect(mw)
		defer mw.held.closeAll()
	}
	src, before, p, saved := mw.plan(n)
	mw.w.emu.ResetStats()
	calls := mw.recordCalls()
	var out bytes.Buffer
	_, err := Apply(ctx, saved, Options{Client: mw.w.c, State: mw.w.state, Hooks: []Hook{&logHook{b: &out}}, Parallelism: 2})
	mw.w.setTamper(nil)
	if err != nil {
		mw.failf("apply of the saved plan failed: %v", err)
		mw.stop(n, p, out.String())
		return
	}
	if mw.held != nil {
		mw.held.check(mw, p)
	}
	mw.checkCalls(saved, calls.list(), mw.w.emu.Stats())
	mw.checkConverged(src, before, calls.paths())
	mw.checkKept(before)
	mw.stop(n, p, out.String())
}

// faultStep plans, then applies under injected faults and lost answers.
// When that apply fails, either a second plan and apply, without faults,
// finish the work, or (half the time, but never at the last step) the work
// is left unfinished and the next step's configuration is planned over it.
// Either way every change is made once, and the world ends as the
// configuration says, with no endpoint made by an apply left unmanaged.
func (mw *modelWalk) faultStep(ctx context.Context, n int) {
	src, before, p, saved := mw.plan(n)
	mw.w.emu.ResetStats()
	mw.w.emu.SetFaults(modelFaults(mw.seed*1000 + uint64(n)))
	mw.w.lostAnswers(rand.New(rand.NewPCG(mw.seed, uint64(n))))
	var out bytes.Buffer
	// One project at a time, so that a seed draws the same faults again.
	_, err := Apply(ctx, saved, Options{Client: mw.w.c, State: mw.w.state, Hooks: []Hook{&logHook{b: &out}}, Parallelism: 1})
	mw.w.setTamper(nil)
	mw.w.emu.SetFaults(emulator.Faults{})
	rec := &mw.history[n]
	rec.notes = append(rec.notes, fmt.Sprintf("faults injected: %v", mw.w.emu.Stats().Faults))
	var damaged *DamagedPlanError
	var stale *StaleError
	if errors.As(err, &damaged) || errors.As(err, &stale) {
		mw.failf("apply refused the saved plan: %v", err)
		mw.stop(n, p, out.String())
	}
	if err != nil {
		rec.notes = append(rec.notes, "apply under faults failed: "+firstLine(err.Error()))
		mw.t.Logf("step %d: apply under faults failed (%s)", n, firstLine(err.Error()))
		if mw.stepsLeft > 0 && mw.rng.IntN(2) == 0 {
			rec.notes = append(rec.notes, "left unfinished: the next step plans over it")
			mw.noteMade(before)
			return
		}
		again, perr := mw.w.tryPlan(src)
		if perr != nil {
			mw.failf("the plan after an apply that failed under faults failed: %v", perr)
			mw.stop(n, p, out.String())
		}
		out.WriteString("\n--- the apply after it, without faults:\n")
		if _, err := Apply(ctx, again, Options{Client: mw.w.c, State: mw.w.state, Hooks: []Hook{&logHook{b: &out}}, Parallelism: 1}); err != nil {
			mw.failf("the apply after an apply that failed under faults failed: %v", err)
			mw.stop(n, p, out.String())
		}
	}
	mw.checkMadeOnce(saved, mw.w.emu.Stats())
	mw.noteMade(before)
	mw.checkConverged(src, before, nil)
	mw.stop(n, p, out.String())
}

// noteMade remembers the endpoints that appeared since before: an apply
// made them, so they must end up managed.
func (mw *modelWalk) noteMade(before modelSnapshot) {
	for _, id := range modelProjects {
		for _, ep := range mw.w.endpoints(id) {
			if _, ok := before.live[ep.ID]; !ok {
				mw.made[ep.ID] = true
			}
		}
	}
}

// plan plans step n's configuration, checks the plan, saves it and reads it
// back; it ends the walk when any of that fails. It returns the
// configuration, the world before the plan, the plan and the saved plan.
func (mw *modelWalk) plan(n int) (string, modelSnapshot, *diff.Plan, *diff.Plan) {
	src := mw.history[n].hcl
	before := mw.snapshot()
	p := mw.planChecked(src, before)
	if p == nil {
		mw.stop(n, nil, "")
	}
	saved := mw.saveAndRead(p, n)
	if saved == nil {
		mw.stop(n, p, "")
	}
	return src, before, p, saved
}

// saveAndRead writes the plan to a file and reads it back, as plan -out and
// apply PLANFILE do.
func (mw *modelWalk) saveAndRead(p *diff.Plan, n int) *diff.Plan {
	file := filepath.Join(mw.w.dir, fmt.Sprintf("step%d.plan.json", n))
	if err := planfile.WriteFile(file, p); err != nil {
		mw.failf("writing the plan file: %v", err)
		return nil
	}
	saved, err := planfile.ReadFile(file)
	if err != nil {
		mw.failf("reading the plan file back: %v", err)
		return nil
	}
	return saved
}

func (mw *modelWalk) failf(format string, args ...any) {
	mw.failures = append(mw.failures, fmt.Sprintf(format, args...))
}

// stop reports the failures of step n, if any, with everything that led to
// them, and ends the walk.
func (mw *modelWalk) stop(n int, p *diff.Plan, applied string) {
	if len(mw.failures) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, step %d (of 0..%d): replay with\n  %s\n", mw.seed, n, len(mw.history)-1, mw.replay)
	for _, f := range mw.failures {
		fmt.Fprintf(&b, "FAILED: %s\n", f)
	}
	for i, rec := range mw.history {
		fmt.Fprintf(&b, "\n=== step %d: %s\n", i, strings.Join(rec.edits, "; "))
		for _, o := range rec.outside {
			fmt.Fprintf(&b, "outside neonform: %s\n", o)
		}
		for _, note := range rec.notes {
			fmt.Fprintf(&b, "note: %s\n", note)
		}
		b.WriteString(rec.hcl)
	}
	if p != nil {
		b.WriteString("\n=== the plan of the failing step:\n")
		view.Human(&b, p, view.HumanOptions{})
	}
	if applied != "" {
		fmt.Fprintf(&b, "\n=== what apply said:\n%s", applied)
	}
	mw.t.Fatal(b.String())
}
