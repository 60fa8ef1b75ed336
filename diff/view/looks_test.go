package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/internal/jsonfast"
)

// manyChanges is the busy scenario's plan with its changes repeated to n,
// each at an address of its own.
func manyChanges(t testing.TB, n int) *diff.Plan {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	some := p.Changes
	p.Changes = make([]diff.Change, 0, n)
	for i := range n {
		c := some[i%len(some)]
		c.Address = fmt.Sprintf("%s_%d", c.Address, i)
		p.Changes = append(p.Changes, c)
	}
	return p
}

// A view given up on stops formatting soon after: an interrupted plan
// returns at once and leaves its view in a goroutine, which a caller that
// lives on (the language server) would otherwise pay for to the end of the
// plan. Each view looks at its context every jsonfast.LookEvery entries of
// a large plan, and the look that finds it done is the last: it formats
// nothing more and returns the context's error. Before, neither looked,
// and both formatted every change of the plan whatever happened.
func TestViewsStopSoonAfterTheirContextIsDone(t *testing.T) {
	const changes = 6 * jsonfast.LookEvery
	p := manyChanges(t, changes)
	views := map[string]func(context.Context, io.Writer) error{
		"terminal": func(ctx context.Context, w io.Writer) error {
			return HumanContext(ctx, w, p, HumanOptions{Verbose: true})
		},
		"pull-request comment": func(ctx context.Context, w io.Writer) error {
			return MarkdownContext(ctx, w, p, 0)
		},
	}
	for name, render := range views {
		whole := plantest.NewCancelAt(0)
		var all strings.Builder
		if err := render(whole, &all); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if whole.Looks < changes/jsonfast.LookEvery {
			t.Fatalf("%s: the view looked at its context %d times, want one every %d changes (%d)", name, whole.Looks, jsonfast.LookEvery, changes/jsonfast.LookEvery)
		}
		for _, n := range []int{1, 2, whole.Looks - 1} {
			ctx := plantest.NewCancelAt(n)
			var out strings.Builder
			if err := render(ctx, &out); !errors.Is(err, context.Canceled) {
				t.Fatalf("%s cancelled at look %d of %d: %v, want context.Canceled", name, n, whole.Looks, err)
			}
			if ctx.Looks != n {
				t.Errorf("%s cancelled at look %d of %d: it went on to look %d times", name, n, whole.Looks, ctx.Looks)
			}
			if n == 1 && out.Len() > all.Len()/4 {
				t.Errorf("%s cancelled at its first look wrote %d of %d bytes", name, out.Len(), all.Len())
			}
		}
	}
}

// A view stops at the first write that fails (an interrupted run's writer
// fails every write once its context is done): the rest of the plan is not
// formatted for a writer that takes nothing.
func TestHumanStopsAtAFailedWrite(t *testing.T) {
	p := manyChanges(t, 4*jsonfast.LookEvery)
	looks := plantest.NewCancelAt(0)
	writes, looked := 0, 0 // the looks before the first write
	full := errors.New("full")
	w := writerFunc(func([]byte) (int, error) {
		if writes++; writes == 1 {
			looked = looks.Looks
		}
		return 0, full
	})
	if err := HumanContext(looks, w, p, HumanOptions{}); !errors.Is(err, full) {
		t.Fatalf("got %v, want the write's error", err)
	}
	if writes != 1 {
		t.Errorf("%d writes, want 1: the view went on after the first failed", writes)
	}
	if looks.Looks != looked {
		t.Errorf("the view looked at its context %d times after its first write failed: it went on formatting", looks.Looks-looked)
	}
}

// BenchmarkAViewGivenUp is how long the terminal view of a plan of 250,000
// changes goes on after its context is done, as an interrupted plan's view
// does (docs/PERFORMANCE.md, A plan view given up): cancelled as it sorts
// and groups the changes (after 0.2 s) and as it shows them (after 4 s),
// writing to a writer that fails every write once it is, as
// abandon.Writer's does. The whole view takes BenchmarkAWholeView's time.
func BenchmarkAViewGivenUp(b *testing.B) {
	p := manyChanges(b, 250_000)
	for _, after := range []time.Duration{200 * time.Millisecond, 4 * time.Second} {
		b.Run(after.String(), func(b *testing.B) {
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				var cancelled atomic.Int64
				time.AfterFunc(after, func() {
					cancelled.Store(time.Now().UnixNano())
					cancel()
				})
				w := writerFunc(func(q []byte) (int, error) { return len(q), ctx.Err() })
				if err := HumanContext(ctx, w, p, HumanOptions{}); !errors.Is(err, context.Canceled) {
					b.Fatalf("the view ended (%v) before it was cancelled", err)
				}
				b.ReportMetric(float64(time.Now().UnixNano()-cancelled.Load())/1e6, "ms-after-cancel")
			}
		})
	}
}

// BenchmarkAWholeView is the terminal view of the plan BenchmarkAViewGivenUp
// gives up.
func BenchmarkAWholeView(b *testing.B) {
	p := manyChanges(b, 250_000)
	for b.Loop() {
		if err := Human(io.Discard, p, HumanOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// BenchmarkMarkdownOfALargePlan is the pull-request comment of the plan
// BenchmarkAViewGivenUp gives up: 250,000 changes, of which a comment of
// GitHub's size shows a few hundred.
func BenchmarkMarkdownOfALargePlan(b *testing.B) {
	p := manyChanges(b, 250_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := Markdown(io.Discard, p, 0); err != nil {
			b.Fatal(err)
		}
	}
}
