package planfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// Saving a large plan stops at the write after an interrupt, and leaves
// what was at the path as it was: no half plan, no temporary file. The
// context here is cancelled at its second look: the first buffer of the
// file goes out, the second finds the interrupt.
func TestSavingAPlanStopsWhenInterrupted(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	for i := range 5000 {
		p.Drift = append(p.Drift, diff.Drift{Address: fmt.Sprintf("shop.main.c%d", i), ProjectID: "proj", EndpointID: fmt.Sprintf("ep-%d", i), Gone: true})
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(path, nil, 0o600); err != nil { // -out may replace an empty file
		t.Fatal(err)
	}
	ctx := plantest.NewCancelAt(2)
	err := WriteFileContext(ctx, path, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("saving, interrupted: %v; want context.Canceled", err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, nil) {
		t.Errorf("the file at the path: %q, %v; want it as it was (empty)", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only the path's: %v", len(entries), entries)
	}
	// Not interrupted, the same plan is saved whole, in many writes.
	whole := plantest.NewCancelAt(0)
	if err := WriteFileContext(whole, path, p); err != nil {
		t.Fatal(err)
	}
	if whole.Looks < 10 {
		t.Errorf("the plan was written in %d writes; the test needs a plan of many", whole.Looks)
	}
}
