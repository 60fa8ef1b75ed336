package apply

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/emulator"
)

// TestFaultsConverge runs 50 randomized plan/apply runs (10 worlds, 5 changes
// of configuration each) against an emulator that fails 20% of requests: 5%
// each answer 503, 429 (with Retry-After) or 423 before doing anything, or
// do the work and then drop the connection; and 20% more are slowed down.
// Every apply must finish, and then, looked at without faults: a new plan has
// nothing to do, no branch has two endpoints of one name, and every endpoint
// is in the state (and every state entry is an endpoint).
func TestFaultsConverge(t *testing.T) {
	faults := "5xx=0.05,429=0.05,423=0.05,drop=0.05,latency=0.2:20ms"
	const worlds, changes = 10, 5
	// The worlds spend their time waiting (Retry-After, backoff), not
	// computing, so they all run at once, more than t.Parallel would allow.
	var wg sync.WaitGroup
	var ambiguous atomic.Int64
	for i := range worlds {
		seed := uint64(i + 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			wt := &worldT{TB: t, name: fmt.Sprintf("seed=%d", seed)}
			defer wt.report()
			f, err := emulator.ParseFaults(faults + fmt.Sprintf(",seed=%d", seed))
			if err != nil {
				wt.Fatalf("%v", err)
			}
			projects := []string{"dark-sun-46453911", "hidden-river-50598307"}
			w := newWorld(wt, worldOptions{projects: projects, opDelay: 2 * time.Millisecond})
			rng := rand.New(rand.NewPCG(seed, 42))
			m := newRandomConfig(rng, projects)
			for n := range changes {
				if n > 0 {
					m.change(rng)
				}
				src := m.hcl()
				w.emu.SetFaults(f)
				var out bytes.Buffer
				_, err := w.apply(context.Background(), w.plan(src), &out)
				w.emu.SetFaults(emulator.Faults{})
				if err != nil {
					wt.Fatalf("change %d: apply failed: %v\n%s\nconfiguration:\n%s", n, err, out.String(), src)
				}
				ambiguous.Add(int64(strings.Count(out.String(), "\nnote ")))
				w.checkConverged(src, projects...)
				if wt.failed() {
					wt.Fatalf("change %d did not converge; configuration:\n%s\napply said:\n%s", n, src, out.String())
				}
			}
			st := w.emu.Stats()
			if own := st.Statuses["423"] - st.Faults["423"]; own != 0 {
				wt.Errorf("apply provoked %d answers 423 itself (beyond the %d injected): it must wait for running operations", own, st.Faults["423"])
			}
			wt.Logf("%s: %d requests, faults injected: %v", wt.name, st.Total, st.Faults)
		}()
	}
	wg.Wait()
	t.Logf("%d mutations lost their answer and were checked before being sent again", ambiguous.Load())
}

// worldT is the testing.TB of one world of TestFaultsConverge, which runs in
// a goroutine of its own: failures are collected and reported by the test.
type worldT struct {
	testing.TB
	name string
	mu   sync.Mutex
	errs []string
}

func (w *worldT) Helper() {}

func (w *worldT) Errorf(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.errs = append(w.errs, fmt.Sprintf(format, args...))
}

func (w *worldT) Fatalf(format string, args ...any) {
	w.Errorf(format, args...)
	runtime.Goexit() // only this world's goroutine stops; report runs deferred
}

func (w *worldT) Fatal(args ...any) { w.Fatalf("%s", fmt.Sprint(args...)) }

func (w *worldT) failed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.errs) > 0
}

func (w *worldT) report() {
	for _, e := range w.errs {
		w.TB.Errorf("%s: %s", w.name, e)
	}
}

// randomConfig is a configuration that changes at random, always valid: every
// main branch keeps its read_write compute, dev has at most one, labels (and
// so names) are never reused within a project.
type randomConfig struct {
	projects []*randomProject
	moves    []string
}

type randomProject struct {
	id       string
	label    string
	branches map[string][]*randomCompute // "main", "dev"
	next     int
}

type randomCompute struct {
	label    string
	rw       bool
	size     string
	suspend  string
	settings bool
	disabled bool
}

var (
	sizes    = []string{"size = 1", "size = 2", "min_cu = 0.25\n      max_cu = 2", "min_cu = 0.5\n      max_cu = 4", "size = 0.25"}
	suspends = []string{"", `"5m"`, `"15m"`, `"never"`}
)

func newRandomConfig(rng *rand.Rand, ids []string) *randomConfig {
	m := &randomConfig{}
	for i, id := range ids {
		p := &randomProject{id: id, label: fmt.Sprintf("p%d", i), branches: map[string][]*randomCompute{}}
		p.branches["main"] = []*randomCompute{p.newCompute(rng, true, "primary")}
		for range rng.IntN(3) {
			p.branches["main"] = append(p.branches["main"], p.newCompute(rng, false, ""))
		}
		if rng.IntN(2) == 0 {
			p.branches["dev"] = append(p.branches["dev"], p.newCompute(rng, true, ""))
		}
		for range rng.IntN(2) {
			p.branches["dev"] = append(p.branches["dev"], p.newCompute(rng, false, ""))
		}
		m.projects = append(m.projects, p)
	}
	return m
}

func (p *randomProject) newCompute(rng *rand.Rand, rw bool, label string) *randomCompute {
	if label == "" {
		p.next++
		label = fmt.Sprintf("c%d", p.next)
	}
	return &randomCompute{label: label, rw: rw, size: sizes[rng.IntN(len(sizes))], suspend: suspends[rng.IntN(len(suspends))]}
}

// change makes one to three random edits, of the kinds a team makes.
func (m *randomConfig) change(rng *rand.Rand) {
	m.moves = nil
	for range 1 + rng.IntN(3) {
		p := m.projects[rng.IntN(len(m.projects))]
		branch := []string{"main", "dev"}[rng.IntN(2)]
		cs := p.branches[branch]
		var c *randomCompute
		if len(cs) > 0 {
			c = cs[rng.IntN(len(cs))]
		}
		switch rng.IntN(8) {
		case 0:
			p.branches[branch] = append(cs, p.newCompute(rng, false, ""))
		case 1: // remove, except main's primary
			if c != nil && !(branch == "main" && c.rw) && !m.moved(p, c) {
				p.branches[branch] = slices.DeleteFunc(cs, func(x *randomCompute) bool { return x == c })
			}
		case 2:
			if c != nil {
				c.size = sizes[rng.IntN(len(sizes))]
			}
		case 3:
			if c != nil {
				c.suspend = suspends[rng.IntN(len(suspends))]
				c.settings = !c.settings
			}
		case 4: // flip the type on dev: a replacement
			if branch == "dev" && c != nil && (c.rw || !slices.ContainsFunc(cs, func(x *randomCompute) bool { return x.rw })) {
				c.rw = !c.rw
			}
		case 5: // move a replica to the other branch
			if c != nil && !c.rw && !m.moved(p, c) {
				to := map[string]string{"main": "dev", "dev": "main"}[branch]
				p.branches[branch] = slices.DeleteFunc(cs, func(x *randomCompute) bool { return x == c })
				p.branches[to] = append(p.branches[to], c)
				m.moves = append(m.moves, fmt.Sprintf("%s.%s.%s", p.label, branch, c.label), fmt.Sprintf("%s.%s.%s", p.label, to, c.label))
			}
		case 6: // rename a replica (its name follows the label)
			if c != nil && !c.rw && !m.moved(p, c) {
				from := fmt.Sprintf("%s.%s.%s", p.label, branch, c.label)
				p.next++
				c.label = fmt.Sprintf("c%d", p.next)
				m.moves = append(m.moves, from, fmt.Sprintf("%s.%s.%s", p.label, branch, c.label))
			}
		case 7:
			if c != nil && !c.rw {
				c.disabled = !c.disabled
			}
		}
	}
}

// moved reports whether a moved block of this change already takes c somewhere.
func (m *randomConfig) moved(p *randomProject, c *randomCompute) bool {
	for i := 1; i < len(m.moves); i += 2 {
		if strings.HasPrefix(m.moves[i], p.label+".") && strings.HasSuffix(m.moves[i], "."+c.label) {
			return true
		}
	}
	return false
}

func (m *randomConfig) hcl() string {
	var b strings.Builder
	for _, p := range m.projects {
		fmt.Fprintf(&b, "project %q {\n  id = %q\n", p.label, p.id)
		for _, branch := range []string{"main", "dev"} {
			fmt.Fprintf(&b, "  branch %q {\n", branch)
			for _, c := range p.branches[branch] {
				typ := "read_only"
				if c.rw {
					typ = "read_write"
				}
				fmt.Fprintf(&b, "    compute %q {\n      type = %q\n      %s\n", c.label, typ, c.size)
				if c.suspend != "" {
					fmt.Fprintf(&b, "      suspend_timeout = %s\n", c.suspend)
				}
				if c.settings {
					b.WriteString("      pg_settings = { work_mem = \"64MB\" }\n")
				}
				if c.disabled {
					b.WriteString("      disabled = true\n")
				}
				b.WriteString("    }\n")
			}
			b.WriteString("  }\n")
		}
		b.WriteString("}\n")
	}
	for i := 0; i+1 < len(m.moves); i += 2 {
		fmt.Fprintf(&b, "moved {\n  from = %q\n  to   = %q\n}\n", m.moves[i], m.moves[i+1])
	}
	return b.String()
}
