package planfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff/planfile"
)

// FuzzReadPlanFile reads arbitrary bytes as a plan file (neonform apply
// PLANFILE, neonform show). It must never panic; an error names the file;
// and a plan that reads is one apply can rely on: written again and read
// back, it is written the same, byte for byte. Seeds: testdata/planfiles
// (real plans, a truncated one) and a state file, the state package's own
// fixture (stateSeed).
//
//	go test ./diff/planfile/ -run '^$' -fuzz FuzzReadPlanFile -fuzztime 1m
//
// stateSeed is a state file: what a plan file is most often mistaken for.
const stateSeed = "../../state/testdata/states/two_computes.json"

// TestFuzzSeedsAreCurrent: the fuzzer starts from plans this neonform
// reads (a seed of an old format would only ever reach the refusal), and
// the truncated one is refused. When the format changes, make the seeds
// again: docs/development.md, "The plan file's fuzz seeds".
func TestFuzzSeedsAreCurrent(t *testing.T) {
	for _, name := range []string{"create.json", "update.json"} {
		p, err := planfile.ReadFile(filepath.Join("testdata/planfiles", name))
		if err != nil {
			t.Errorf("seed %s does not read: %v", name, err)
			continue
		}
		if len(p.Steps) == 0 || len(p.Changes) == 0 {
			t.Errorf("seed %s has no changes or no steps: it would not reach the checks of either", name)
		}
	}
	if _, err := planfile.ReadFile("testdata/planfiles/truncated.json"); err == nil || !strings.Contains(err.Error(), "is not a valid plan file") {
		t.Errorf("the truncated seed read, or was refused for another reason: %v", err)
	}
}

func FuzzReadPlanFile(f *testing.F) {
	seeds, err := filepath.Glob("testdata/planfiles/*.json")
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds in testdata/planfiles: %v", err)
	}
	seeds = append(seeds, stateSeed)
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "plan.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := planfile.ReadFile(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Errorf("the error does not name the file: %v", err)
			}
			return
		}
		var once, twice bytes.Buffer
		if err := planfile.RenderJSON(&once, p); err != nil {
			t.Fatalf("a plan that was read cannot be written: %v", err)
		}
		// RenderJSON writes what WriteFile does, without the fsync that
		// would slow the fuzzer down a hundredfold.
		if err := os.WriteFile(path, once.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		again, err := planfile.ReadFile(path)
		if err != nil {
			t.Fatalf("a plan neonform wrote does not read back: %v", err)
		}
		if err := planfile.RenderJSON(&twice, again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Errorf("reading and writing the plan again changed it:\n%s\nvs\n%s", once.Bytes(), twice.Bytes())
		}
	})
}
