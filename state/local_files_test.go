package state

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// A serial at the largest int64 has no next: the write is refused, and the
// state is left as it was. Before, the serial wrapped to the smallest
// negative number.
func TestLocalWriteRefusesTheSerialAfterTheLargest(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	s := sampleState()
	s.Serial = math.MaxInt64 - 1
	if err := os.WriteFile(l.Path(), []byte(fmt.Sprintf(`{"format_version": 1, "lineage": %q, "serial": %d, "computes": {}}`, s.Lineage, s.Serial)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(ctx, s); err != nil {
		t.Fatalf("the write to the largest serial: %v", err)
	}
	before, _ := os.ReadFile(l.Path())
	err := l.Write(ctx, s)
	if err == nil || !strings.Contains(err.Error(), "its serial is 9223372036854775807, the largest a serial can be") || !strings.Contains(err.Error(), `Lower "serial"`) {
		t.Fatalf("Write past the largest serial = %v, want a refusal saying how to go on", err)
	}
	if after, _ := os.ReadFile(l.Path()); string(after) != string(before) {
		t.Errorf("the refused write changed the state:\n%s", after)
	}
	if s.Serial != math.MaxInt64 {
		t.Errorf("s.Serial = %d after a refused write", s.Serial)
	}
}
