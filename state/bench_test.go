package state

import (
	"context"
	"fmt"
	"testing"

	"github.com/neonform/neonform/api"
)

// bigState has n computes: apply writes the whole state after every step,
// so a write's cost at a realistic size is what a large apply pays per step.
func bigState(n int) *State {
	s := New()
	for i := range n {
		s.Computes[fmt.Sprintf("proj%d.main.c%d", i/10, i)] = &Compute{
			EndpointID: fmt.Sprintf("ep-bench-%08d", i), ProjectID: fmt.Sprintf("p-%d", i/10), BranchID: "br-main",
			Type:    api.EndpointTypeReadOnly,
			Applied: Attributes{Name: "c", MinCU: 0.25, MaxCU: 4, SuspendTimeoutSeconds: 300, PgSettings: map[string]string{"work_mem": "64MB"}},
		}
	}
	return s
}

func BenchmarkLocalWrite100Computes(b *testing.B) {
	ctx := context.Background()
	l := NewLocal(b.TempDir() + "/neonform.state.json")
	s := bigState(100)
	for b.Loop() {
		if err := l.Write(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLocalRead100Computes(b *testing.B) {
	ctx := context.Background()
	l := NewLocal(b.TempDir() + "/neonform.state.json")
	if err := l.Write(ctx, bigState(100)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := l.Read(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPostgresWrite100Computes(b *testing.B) {
	ctx := context.Background()
	p, err := NewPostgres(ctx, postgresDSN(b), "bench/"+newUUID()[:8])
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	s := bigState(100)
	for b.Loop() {
		if err := p.Write(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

// The state of 1,000 projects x 10 computes (2.7 MB): what a plan of the
// large benchmark reads once, and what each step of a large apply writes.
func BenchmarkLocalRead10000Computes(b *testing.B) {
	ctx := context.Background()
	l := NewLocal(b.TempDir() + "/neonform.state.json")
	if err := l.Write(ctx, bigState(10000)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := l.Read(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLocalWrite10000Computes(b *testing.B) {
	ctx := context.Background()
	l := NewLocal(b.TempDir() + "/neonform.state.json")
	s := bigState(10000)
	for b.Loop() {
		if err := l.Write(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

// A write under project locks merges into the stored state (merge.go): what
// it costs over a plain write, on a state of 1,000 computes in 100 projects,
// the run holding one.
func BenchmarkPostgresMergedWrite1000Computes(b *testing.B) {
	ctx := context.Background()
	p, err := NewPostgres(ctx, postgresDSN(b), "bench/"+newUUID()[:8])
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	if err := p.Write(ctx, bigState(1000)); err != nil {
		b.Fatal(err)
	}
	unlock, err := p.LockProjects(ctx, "bench", []string{"p-7"})
	if err != nil {
		b.Fatal(err)
	}
	defer unlock()
	s, err := p.Read(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := p.Write(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

// Taking and releasing the locks of 100 projects: one statement tries them
// all.
func BenchmarkPostgresLockProjects100(b *testing.B) {
	ctx := context.Background()
	p, err := NewPostgres(ctx, postgresDSN(b), "bench/"+newUUID()[:8])
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = fmt.Sprintf("p-%d", i)
	}
	for b.Loop() {
		unlock, err := p.LockProjects(ctx, "bench", ids)
		if err != nil {
			b.Fatal(err)
		}
		if err := unlock(); err != nil {
			b.Fatal(err)
		}
	}
}
