package planfile

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/internal/jsonfast"
)

// Reading a large saved plan stops midway once apply is interrupted: the
// decoder looks at the context every jsonfast.LookEvery elements of the
// plan's lists (its steps and its drift here), and the look that finds
// it done is the last: nothing more is decoded or checked, and the read
// returns the context's error. Before, decoding a plan of 250,000 steps
// (about 4 s of CPU) looked at nothing.
func TestReadingALargePlanStopsWhenInterrupted(t *testing.T) {
	const each = 20 * jsonfast.LookEvery
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	steps := p.Steps
	if len(steps) == 0 {
		t.Fatal("the scenario has no steps")
	}
	p.Steps, p.Drift = nil, nil
	for i := range each {
		p.Steps = append(p.Steps, steps[i%len(steps)])
		p.Drift = append(p.Drift, diff.Drift{Address: fmt.Sprintf("shop.main.c%d", i), ProjectID: "proj", EndpointID: fmt.Sprintf("ep-%d", i), Gone: true})
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	whole := plantest.NewCancelAt(0)
	ReadFileContext(whole, path) // refused: the steps repeat; what counts is how often it looked
	if whole.Looks < 2*each/jsonfast.LookEvery {
		t.Fatalf("the read looked at its context %d times, want one every %d elements (%d)", whole.Looks, jsonfast.LookEvery, 2*each/jsonfast.LookEvery)
	}
	for _, n := range []int{1, 2, each / jsonfast.LookEvery, 2*each/jsonfast.LookEvery - 1} {
		ctx := plantest.NewCancelAt(n)
		got, err := ReadFileContext(ctx, path)
		if !errors.Is(err, context.Canceled) || got != nil {
			t.Fatalf("cancelled at look %d of %d: %v, want context.Canceled", n, whole.Looks, err)
		}
		if ctx.Looks != n {
			t.Errorf("cancelled at look %d of %d, the read went on to look %d times", n, whole.Looks, ctx.Looks)
		}
	}
}
