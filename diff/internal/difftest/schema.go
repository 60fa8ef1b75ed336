package difftest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/neonform/neonform/internal/planschema"
)

// planSchema is the plan file's schema (diff/planfile/plan.schema.json,
// read from the source tree: this package cannot import the plan file's
// package, whose tests use it). It is read in a test, not at start, so that
// go test's cache sees the file.
var planSchema = sync.OnceValue(func() []byte {
	_, here, _, _ := runtime.Caller(0)
	schema, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "planfile", "plan.schema.json"))
	if err != nil {
		panic(err)
	}
	return schema
})

// JSONTrip is plan encoded as the plan file holds it (json.MarshalIndent:
// diff/planfile's TestPlanFileIsMarshalIndent), checked against the plan
// file's schema, and decoded again; the caller makes the decoded plan whole
// as the plan file's reader does (diff.CompactBodies, diff.Normalize).
func JSONTrip[P any](t testing.TB, plan *P) *P {
	t.Helper()
	b, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := planschema.Check(planSchema(), b); err != nil {
		t.Fatal(err)
	}
	read := new(P)
	if err := json.Unmarshal(b, read); err != nil {
		t.Fatalf("the plan does not read back: %v", err)
	}
	return read
}
