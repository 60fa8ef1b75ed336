package config_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// lookingCountdown is a context done from its nth look on (never, when n
// is 0) that counts the looks of the loader between files and phases.
type lookingCountdown struct {
	context.Context
	looks, n, between int
}

func (c *lookingCountdown) Err() error {
	c.looks++
	pcs := make([]uintptr, 1)
	if runtime.Callers(2, pcs) == 1 {
		if f, _ := runtime.CallersFrames(pcs).Next(); strings.HasSuffix(f.Function, "config.(*loader).stopBefore") {
			c.between++
		}
	}
	if c.n > 0 && c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

// A configuration of several files is looked at for an interrupt before
// each file is parsed, and between the phases of the load, not only while
// expressions are evaluated: parsing a large file takes about a second
// (docs/apply.md, Interrupting). Cancelled at any look, the load stops with
// one error, "Interrupted", and reads no more.
func TestLoadStopsBetweenFilesAndPhases(t *testing.T) {
	files := map[string][]byte{}
	for i := range 4 {
		files[fmt.Sprintf("p%d.hcl", i)] = fmt.Appendf(nil, "project \"p%d\" {\n  id = \"proj-%d\"\n  branch \"main\" {\n    compute \"c\" {}\n  }\n}\n", i, i)
	}
	never := &lookingCountdown{Context: context.Background()}
	if _, diags := config.LoadSources("dir", files, config.Options{Context: never}); diags.HasErrors() {
		t.Fatal(diags)
	}
	// Four files read twice (their shape, then their projects) and a look
	// before the evaluation.
	if never.between < 9 {
		t.Fatalf("the load looked at its context %d times between files and phases, want 9 or more", never.between)
	}
	for n := 1; n <= never.looks; n++ {
		ctx := &lookingCountdown{Context: context.Background(), n: n}
		_, diags := config.LoadSources("dir", files, config.Options{Context: ctx})
		if len(diags) != 1 || diags[0].Summary != "Interrupted" {
			t.Fatalf("cancelled at look %d of %d: %v, want one error, Interrupted", n, never.looks, diags)
		}
	}
}
