package diff

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// BenchmarkPlanGone plans a state whose every entry's endpoint was deleted
// outside neonform: each becomes a state-only step that forgets it, so the
// plan has as many steps as the state has entries, the most a state of that
// size can order. "one-project" puts every entry in one project (the steps
// of one project are ordered together), "spread" 10 to a project. Then
// Verify, which apply runs on a saved plan, derives them all again.
// Goals and figures: docs/PERFORMANCE.md.
//
//	go test ./diff -run '^$' -bench BenchmarkPlanGone -benchtime 1x
func BenchmarkPlanGone(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 250_000} {
		for _, perProject := range []int{n, 10} {
			layout := "spread"
			if perProject == n {
				layout = "one-project"
			}
			b.Run(fmt.Sprintf("entries=%d/%s", n, layout), func(b *testing.B) {
				cfg, st, live := goneWorld(n, perProject)
				cpu := cpuTime(b)
				for b.Loop() {
					p, diags := Build(cfg, st, live, testOpts)
					if diags.HasErrors() {
						b.Fatal(diags.String())
					}
					if len(p.Steps) != n {
						b.Fatalf("%d steps, want %d", len(p.Steps), n)
					}
					if _, err := Verify(p, st); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuTime(b)-cpu).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// goneWorld is a configuration of projects with no computes, a state of n
// entries, perProject to a project, and projects with no endpoint left.
func goneWorld(n, perProject int) (*config.Config, *state.State, *Live) {
	st := stateWith("", nil)
	cfg := difftest.CfgOf()
	live := liveOf()
	for i := range n {
		p := i / perProject
		id := fmt.Sprintf("proj-%07d", p)
		if i%perProject == 0 {
			cfg.Projects = append(cfg.Projects, difftest.Project(fmt.Sprintf("p%d", p), id))
			live.Projects[id] = liveProject(id)
		}
		ep := difftest.Endpoint(fmt.Sprintf("ep-gone-%08d", i), "br-main", difftest.RO)
		st.Computes[fmt.Sprintf("p%d.main.c%d", p, i)] = LiveValues(&ep).Record(ep.ID, id, false)
	}
	return cfg, st, live
}

// cpuTime is the CPU time the process has used, its garbage collector's
// included: on a machine shared with other work it says what a plan costs
// better than the wall time does.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
