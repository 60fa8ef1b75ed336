//go:build unix

package apply

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// BenchmarkApplyForgetGone applies a plan that forgets n computes of one
// project whose endpoints were deleted outside neonform: n state-only steps
// and no call but the read of the project's endpoints, with the local state
// file. It reports the CPU time of the apply (cpu-s/op: on a shared machine
// the wall time says little). Figures: docs/PERFORMANCE.md ("Applying a
// plan of state-only steps").
//
//	go test ./apply -run '^$' -bench BenchmarkApplyForgetGone -benchtime 1x
func BenchmarkApplyForgetGone(b *testing.B) {
	for _, n := range []int{1_000, 4_000, 10_000, 40_000} {
		b.Run(fmt.Sprintf("computes=%d", n), func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				w := goneWorld(b, n)
				p := w.plan(`project "shop" { id = "dark-sun-46453911" }`)
				b.StartTimer()
				before := cpuTime(b)
				rep, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state})
				cpu += cpuTime(b) - before
				if err != nil || rep.Counts.ForgotGone != n {
					b.Fatalf("apply: %v, forgot %d of %d", err, rep.Counts.ForgotGone, n)
				}
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
