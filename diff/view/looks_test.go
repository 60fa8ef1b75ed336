package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/internal/jsonfast"
)

// A view given up on stops formatting soon after: an interrupted plan
// returns at once and leaves its view in a goroutine, which a caller that
// lives on (the language server) would otherwise pay for to the end of the
// plan. Each view looks at its context every jsonfast.LookEvery entries of
// a large plan, and the look that finds it done is the last: it formats
// nothing more and returns the context's error. Before, neither looked,
// and both formatted every change of the plan whatever happened.
func TestViewsStopSoonAfterTheirContextIsDone(t *testing.T) {
	const changes = 6 * jsonfast.LookEvery
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	some := p.Changes
	p.Changes = nil
	for i := range changes {
		c := some[i%len(some)]
		c.Address = fmt.Sprintf("%s_%d", c.Address, i)
		p.Changes = append(p.Changes, c)
	}
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
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	some := p.Changes
	p.Changes = nil
	for i := range 4 * jsonfast.LookEvery {
		c := some[i%len(some)]
		c.Address = fmt.Sprintf("%s_%d", c.Address, i)
		p.Changes = append(p.Changes, c)
	}
	w := &failingWriter{}
	looks := plantest.NewCancelAt(0)
	if err := HumanContext(looks, w, p, HumanOptions{}); !errors.Is(err, errFull) {
		t.Fatalf("got %v, want the write's error", err)
	}
	if w.writes != 1 {
		t.Errorf("%d writes, want 1: the view went on after the first failed", w.writes)
	}
	if looks.Looks > 0 {
		t.Errorf("the view looked at its context %d times after its first write failed: it went on formatting", looks.Looks)
	}
}

var errFull = errors.New("full")

type failingWriter struct{ writes int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errFull
}
