package diff

import (
	"math/rand/v2"
	"testing"
)

// A random walk over accounts and -target lists of a destroy: the plan
// deletes exactly the managed computes the targets cover, each once, reads
// only the projects a target is in, and apply's checks accept it (Verify,
// with the state). A failure prints its seed.
func TestTargetedDestroyDeletesWhatItCovers(t *testing.T) {
	sizes, hints := []float64{0.25, 1, 4}, []float64{10}
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 33))
		w := randomAccount(r, sizes, hints)
		var targets []string
		for len(targets) == 0 {
			for _, a := range w.targetable {
				if r.IntN(3) == 0 {
					targets = append(targets, a)
				}
			}
		}
		cfg, st, live := w.make()
		opts := testOpts
		opts.Scope = Scope{Destroy: true, Targets: targets}
		p, diags := Build(cfg, st, live, opts)
		if diags.HasErrors() {
			t.Fatalf("seed %d: targets %v: %s\n%s", seed, targets, diags.String(), w)
		}
		checkVerifies(t, p, st)
		sc, _ := scopeOf(&Plan{Targets: targets})
		deleted := map[string]bool{}
		for _, c := range p.Changes {
			if c.Action != Delete || !sc.covers(c.Address) || deleted[c.Address] {
				t.Fatalf("seed %d: targets %v: change %s %v (covered %v, twice %v)\n%s", seed, targets, c.Address, c.Action, sc.covers(c.Address), deleted[c.Address], w)
			}
			deleted[c.Address] = true
		}
		for addr := range st.Computes {
			if sc.covers(addr) != deleted[addr] {
				t.Fatalf("seed %d: targets %v: %s covered %v, deleted %v\n%s", seed, targets, addr, sc.covers(addr), deleted[addr], w)
			}
		}
		for _, proj := range p.Projects {
			if !sc.reads(proj.Label) {
				t.Fatalf("seed %d: targets %v: read project %s, which no target is in", seed, targets, proj.Label)
			}
		}
	}
}
