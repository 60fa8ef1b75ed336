package apply

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// The promise of every saved plan about staleness: apply refuses it as stale
// exactly when the state or the live endpoints of a project it changes
// changed since it was made; writes anywhere else leave it current. A random
// walk: random plans, then random writes interleaved between each plan and
// its apply (an apply -target of one project, a state rm, a state written
// unchanged, an endpoint changed outside neonform), each in a project the
// plan changes or another. The oracle compares the world itself (the state's
// entries and the endpoints, field by field), not the digests. Replay a
// failure with -seed.
func TestStaleIffATouchedProjectChanged(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if *modelSeed != 0 {
		seeds = []uint64{*modelSeed}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { staleWalk(t, seed) })
	}
}

// walkProjects are the walk's projects; their labels are p0, p1...
var walkProjects = []string{shop, "hidden-river-50598307", "quiet-lake-61203874", "cold-lake-12345678"}

// walkConfig is one project's configuration: its primary's max_cu, and
// whether it has a replica.
type walkConfig struct {
	maxCU   int
	replica bool
}

func (c walkConfig) hcl(i int) string {
	s := fmt.Sprintf("project %q {\n  id = %q\n  branch \"main\" {\n    compute \"primary\" {\n      min_cu = 0.25\n      max_cu = %d\n    }\n",
		fmt.Sprintf("p%d", i), walkProjects[i], c.maxCU)
	if c.replica {
		s += "    compute \"reports\" {\n      type = \"read_only\"\n    }\n"
	}
	return s + "  }\n}\n"
}

func walkSource(cfgs []walkConfig) string {
	var b strings.Builder
	for i, c := range cfgs {
		b.WriteString(c.hcl(i))
	}
	return b.String()
}

func randomWalkConfig(rng *rand.Rand) walkConfig {
	return walkConfig{maxCU: 1 + rng.IntN(3), replica: rng.IntN(2) == 0}
}

func staleWalk(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x7374616c65))
	w := newWorld(t, worldOptions{projects: walkProjects})
	cfgs := make([]walkConfig, len(walkProjects))
	for i := range cfgs {
		cfgs[i] = randomWalkConfig(rng)
	}
	w.mustApply(walkSource(cfgs))
	var log []string
	fail := func(format string, args ...any) {
		t.Fatalf("seed %d (replay: go test ./apply/ -run 'TestStaleIffATouchedProjectChanged' -seed %d):\n%s\n%s",
			seed, seed, strings.Join(log, "\n"), fmt.Sprintf(format, args...))
	}
	for round := range 12 {
		w.scope = diff.Scope{}
		planned := slices.Clone(cfgs)
		for i := range planned {
			if rng.IntN(2) == 0 {
				planned[i] = randomWalkConfig(rng)
			}
		}
		p := w.plan(walkSource(planned))
		touched := map[string]bool{}
		for _, s := range p.Steps {
			touched[s.ProjectID] = true
		}
		log = append(log, fmt.Sprintf("round %d: a plan of %d steps in %v", round, len(p.Steps), slices.Sorted(maps.Keys(touched))))
		before := w.snapshot()
		for range rng.IntN(4) {
			log = append(log, "  "+w.randomWrite(rng, cfgs))
		}
		after := w.snapshot()
		var changed []string
		for id := range touched {
			if !reflect.DeepEqual(before[id], after[id]) {
				changed = append(changed, id)
			}
		}
		_, err := w.apply(context.Background(), p, nil)
		var stale *StaleError
		isStale := errors.As(err, &stale)
		log = append(log, fmt.Sprintf("  apply: changed since in touched projects %v; got %v", changed, err))
		switch {
		case err != nil && !isStale:
			fail("apply failed, not as stale: %v", err)
		case isStale != (len(changed) > 0):
			fail("stale %v, but the touched projects that changed are %v", isStale, changed)
		case isStale:
			for _, f := range stale.Facts {
				if f.ProjectID != "" && !slices.Contains(changed, f.ProjectID) {
					fail("a fact about project %s, which did not change or is not touched: %+v", f.ProjectID, f)
				}
			}
		default:
			cfgs = planned
		}
	}
}

// projectSnapshot is what of one project a plan depends on: its state
// entries and its live endpoints' managed fields.
type projectSnapshot struct {
	entries   map[string]state.Compute
	endpoints map[string]string
}

func (w *world) snapshot() map[string]projectSnapshot {
	w.t.Helper()
	st, err := w.state.Read(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[string]projectSnapshot{}
	for _, id := range walkProjects {
		s := projectSnapshot{entries: map[string]state.Compute{}, endpoints: map[string]string{}}
		for addr, c := range st.Computes {
			if c.ProjectID == id {
				s.entries[addr] = *c
			}
		}
		for _, ep := range w.endpoints(id) {
			s.endpoints[ep.ID] = fmt.Sprint(ep.Type, ep.BranchID, ep.Name, ep.AutoscalingLimitMinCU, ep.AutoscalingLimitMaxCU,
				ep.SuspendTimeoutSeconds, ep.Settings.PgSettings, ep.Disabled)
		}
		out[id] = s
	}
	return out
}

// randomWrite changes the world in one random project, as another pipeline
// or a person would, and says what it did.
func (w *world) randomWrite(rng *rand.Rand, cfgs []walkConfig) string {
	w.t.Helper()
	i := rng.IntN(len(walkProjects))
	id := walkProjects[i]
	switch rng.IntN(4) {
	case 0: // apply -target of this project, with its configuration changed
		cfgs[i] = randomWalkConfig(rng)
		w.scope = diff.Scope{Targets: []string{fmt.Sprintf("p%d", i)}}
		defer func() { w.scope = diff.Scope{} }()
		w.mustApply(walkSource(cfgs))
		return fmt.Sprintf("apply -target p%d (%+v)", i, cfgs[i])
	case 1: // state rm of one of its entries
		st, err := w.state.Read(context.Background())
		if err != nil {
			w.t.Fatal(err)
		}
		var addrs []string
		for addr, c := range st.Computes {
			if c.ProjectID == id {
				addrs = append(addrs, addr)
			}
		}
		if len(addrs) == 0 {
			return fmt.Sprintf("state rm in p%d: nothing to remove", i)
		}
		slices.Sort(addrs)
		addr := addrs[rng.IntN(len(addrs))]
		delete(st.Computes, addr)
		if err := w.state.Write(context.Background(), st); err != nil {
			w.t.Fatal(err)
		}
		return "state rm " + addr
	case 2: // the state written as it is (a state push of the same entries)
		st, err := w.state.Read(context.Background())
		if err != nil {
			w.t.Fatal(err)
		}
		if err := w.state.Write(context.Background(), st); err != nil {
			w.t.Fatal(err)
		}
		return "state written unchanged"
	default: // its primary resized outside neonform
		for _, ep := range w.endpoints(id) {
			if ep.Type == api.EndpointTypeReadWrite {
				size := float64(4 + rng.IntN(2))
				if _, err := w.c.UpdateEndpoint(context.Background(), id, ep.ID, api.EndpointUpdate{AutoscalingLimitMaxCU: &size}); err != nil {
					w.t.Fatal(err)
				}
				return fmt.Sprintf("p%d's primary resized to max_cu %v outside neonform", i, size)
			}
		}
		return fmt.Sprintf("p%d has no primary", i)
	}
}
